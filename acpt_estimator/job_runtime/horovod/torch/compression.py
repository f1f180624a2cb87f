"""hvd.Compression: none, or fp16 for floating-point gradients on the wire (Horovod's semantics)."""

import torch


class Compressor:
    """Compress a tensor for a collective, and restore it afterwards."""

    @staticmethod
    def compress(tensor):
        return tensor, None

    @staticmethod
    def decompress(tensor, ctx):
        return tensor

    @staticmethod
    def wire_dtype(dtype):
        """The dtype a gradient of ``dtype`` travels in (lets the optimizer size its buckets)."""
        return dtype


class NoneCompressor(Compressor):
    """Default: gradients travel as they are."""


class FP16Compressor(Compressor):
    """Floating-point tensors travel as float16 and come back in their own dtype."""

    @staticmethod
    def compress(tensor):
        return (tensor.type(torch.float16) if tensor.dtype.is_floating_point else tensor), tensor.dtype

    @staticmethod
    def decompress(tensor, ctx):
        return tensor.type(ctx) if ctx.is_floating_point else tensor

    @staticmethod
    def wire_dtype(dtype):
        return torch.float16 if dtype.is_floating_point else dtype


class Compression:
    """Optional gradient compression used during allreduce."""

    none = NoneCompressor
    fp16 = FP16Compressor
