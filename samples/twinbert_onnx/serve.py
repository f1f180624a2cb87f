"""Serve the exported TwinBERT-style model with ONNX Runtime and print the AUC of PyTorch and each ONNX variant."""

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import auc, make_model, make_pairs  # noqa: E402

VARIANTS = {"fp32": "twinbert.onnx", "ort-opt": "twinbert.opt.onnx", "int8": "twinbert.int8.onnx"}


def load(checkpoint):
    model = make_model()
    model.load_state_dict(torch.load(checkpoint, map_location="cpu", weights_only=True)["state_dict"])
    return model.eval()


def score_torch(model, query, doc, batch_size=256):
    with torch.inference_mode():
        return np.concatenate([model(query[i:i + batch_size], doc[i:i + batch_size]).numpy()
                               for i in range(0, len(query), batch_size)])


def score_onnx(path, query, doc, batch_size=256):
    """Plain ONNX Runtime, as a scoring service would run it: no torch involved."""
    import onnxruntime as ort

    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    query, doc = query.numpy(), doc.numpy()
    return np.concatenate([session.run(["score"], {"query": query[i:i + batch_size], "doc": doc[i:i + batch_size]})[0]
                           for i in range(0, len(query), batch_size)])


def evaluate_variants(model, onnx_dir, pairs=4000, seed=7):
    """``{name: {"auc", "auc_delta", "max_abs_err", "agreement"}}`` on held-out pairs, PyTorch first."""
    query, doc, labels = make_pairs(pairs, seed=seed)
    reference = score_torch(model, query, doc)
    results = {"pytorch": {"auc": auc(labels, reference), "auc_delta": 0.0, "max_abs_err": 0.0, "agreement": 1.0}}
    for name, file in VARIANTS.items():
        path = os.path.join(onnx_dir, file)
        if not os.path.exists(path):
            continue
        scores = score_onnx(path, query, doc)
        value = auc(labels, scores)
        results[name] = {"auc": value, "auc_delta": value - results["pytorch"]["auc"],
                         "max_abs_err": float(np.abs(scores - reference).max()),
                         "agreement": float(((scores > 0.5) == (reference > 0.5)).mean())}
    return results


def print_results(results, pairs):
    print(f"held-out synthetic pairs: {pairs}")
    print(f"{'variant':<9}{'AUC':>8}{'AUC delta':>11}{'max |score diff|':>18}{'same decision':>15}")
    for name, r in results.items():
        print(f"{name:<9}{r['auc']:>8.4f}{r['auc_delta']:>+11.4f}{r['max_abs_err']:>18.1e}"
              f"{100 * r['agreement']:>14.2f}%")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checkpoint", default="outputs/twinbert.pt")
    parser.add_argument("--onnx-dir", default=None, help="folder of the .onnx files (default: the checkpoint's)")
    parser.add_argument("--pairs", type=int, default=4000)
    args = parser.parse_args(argv)
    model = load(args.checkpoint)
    onnx_dir = args.onnx_dir or os.path.dirname(os.path.abspath(args.checkpoint))
    if not os.path.exists(os.path.join(onnx_dir, VARIANTS["fp32"])):
        from train import export_variants  # trained without --export: export (and verify) now

        print(export_variants(model, onnx_dir))
    print_results(evaluate_variants(model, onnx_dir, args.pairs), args.pairs)


if __name__ == "__main__":
    main()
