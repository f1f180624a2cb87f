"""TwinBERT-style sample: ORT/PyTorch latency ratios at batch 1 and 32 (fp32, int8) and each variant's AUC, one run."""

import argparse
import os
import sys
import tempfile
import time

import torch

from acpt_estimator.onnx.report import summary_table

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "samples", "twinbert_onnx")
sys.path.insert(0, SAMPLE)
from serve import evaluate_variants, load  # noqa: E402
from train import evaluate, export_variants, train  # noqa: E402

TARGET_SPEEDUP_B1, TARGET_MAX_ABS, TARGET_AUC_DELTA = 2.0, 1e-4, 0.005


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=400, help="training steps (default 400)")
    parser.add_argument("--checkpoint", help="reuse a trained outputs/twinbert.pt instead of training")
    parser.add_argument("--repeats", type=int, default=200, help="timed calls per variant and batch")
    parser.add_argument("--pairs", type=int, default=4000, help="held-out pairs for AUC")
    parser.add_argument("--threads", type=int, default=None, help="threads for torch and ORT alike (default: torch's)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    model = load(args.checkpoint) if args.checkpoint else train(args.steps, log=lambda *a: None)
    print(f"model: TwinBERT-style, {sum(p.numel() for p in model.parameters())} parameters, "
          f"{'loaded' if args.checkpoint else f'trained {args.steps} steps'} in {time.perf_counter() - started:.1f} s, "
          f"validation AUC {evaluate(model):.4f}; torch {torch.__version__}, {torch.get_num_threads()} threads")
    with tempfile.TemporaryDirectory() as out:
        report = export_variants(model, out, latency=True, repeats=args.repeats, threads=args.threads)
        quality = evaluate_variants(model, out, args.pairs)
        print("\n" + summary_table(report.variants))  # inside the block: it reads the files' sizes
    print_tables(report, quality, args.pairs)


def print_tables(report, quality, pairs):
    rows, setup = report.latency, report.latency_setup
    eager = {r.batch: r.median_ms for r in rows if r.variant == "pytorch"}
    print(f"\nlatency: {setup}")
    print(f"{'variant':<9}{'b1 ms':>9}{'b1 ORT/PyTorch':>16}{'b1 speed-up':>13}"
          f"{'b32 ms':>9}{'b32 ORT/PyTorch':>17}{'b32 speed-up':>14}")
    for name in dict.fromkeys(r.variant for r in rows):
        line = f"{name:<9}"
        for batch, width in ((1, 16), (32, 17)):
            row = next(r for r in rows if r.variant == name and r.batch == batch)
            line += f"{row.median_ms:>9.3f}{row.median_ms / eager[batch]:>{width}.3f}{row.speedup:>{width - 3}.2f}x"
        print(line)
    print(f"\naccuracy on {pairs} held-out pairs (verification max abs err over every shape case, vs PyTorch)")
    print(f"{'variant':<9}{'AUC':>8}{'AUC delta':>11}{'verify max abs err':>20}{'same decision':>15}")
    for name, q in quality.items():
        err = report.variant(name).max_abs if name != "pytorch" else 0.0
        print(f"{name:<9}{q['auc']:>8.4f}{q['auc_delta']:>+11.4f}{err:>20.1e}{100 * q['agreement']:>14.2f}%")
    fp32_b1 = next(r.speedup for r in rows if r.variant == "fp32" and r.batch == 1)
    fp32_err = report.variant("fp32").max_abs
    int8_delta = quality["int8"]["auc_delta"]
    print("\ntargets")
    print(f"  ORT fp32 >= {TARGET_SPEEDUP_B1:.0f}x faster than eager at batch 1: {fp32_b1:.2f}x  "
          f"{'met' if fp32_b1 >= TARGET_SPEEDUP_B1 else 'MISSED'}")
    print(f"  ORT fp32 max abs error <= {TARGET_MAX_ABS:.0e}: {fp32_err:.1e}  "
          f"{'met' if fp32_err <= TARGET_MAX_ABS else 'MISSED'}")
    print(f"  int8 |AUC delta| <= {TARGET_AUC_DELTA}: {abs(int8_delta):.4f}  "
          f"{'met' if abs(int8_delta) <= TARGET_AUC_DELTA else 'MISSED'}")


if __name__ == "__main__":
    main()
