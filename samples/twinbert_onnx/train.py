"""Train the TwinBERT-style model briefly on synthetic pairs, then export it to ONNX (verified) into outputs/."""

import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # model.py sits next to this script
from model import VOCAB, auc, make_model, make_pairs  # noqa: E402


def train(steps=400, batch_size=64, lr=1e-3, seed=0, log=print):
    """A few hundred Adam steps on fresh synthetic batches; returns the model in eval mode."""
    torch.manual_seed(seed)
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = torch.nn.BCELoss()
    model.train()
    for step in range(steps):
        query, doc, labels = make_pairs(batch_size, seed=10_000 + step)
        loss = loss_fn(model(query, doc), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0 or step == steps - 1:
            log("loss", loss.item())
    return model.eval()


def evaluate(model, n=2000, seed=1) -> float:
    query, doc, labels = make_pairs(n, seed=seed)
    with torch.inference_mode():
        return auc(labels.numpy(), model(query, doc).numpy())


def export_variants(model, out_dir, latency=False, repeats=30, threads=None):
    """fp32, ORT-optimised and int8 ONNX files, each verified against the model; returns the ExportReport."""
    from acpt_estimator.onnx import export

    query, doc, _ = make_pairs(4, seed=2)
    check_query, check_doc, _ = make_pairs(256, seed=3)  # real-looking pairs: top-1 agreement is meaningful here
    return export(
        model, (query, doc), os.path.join(out_dir, "twinbert.onnx"),
        input_names=["query", "doc"], output_names=["score"],
        dynamic_axes={"query": {0: "batch", 1: "query_len"}, "doc": {0: "batch", 1: "doc_len"}},
        value_ranges={"query": (0, VOCAB), "doc": (0, VOCAB)}, verify_inputs=[(check_query, check_doc)],
        classifier=0.5, optimize=True, int8=True, latency=latency, latency_batches=(1, 32),
        latency_repeats=repeats, latency_warmup=20, threads=threads)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--output-dir", default="outputs")
    parser.add_argument("--no-export", action="store_true")
    args = parser.parse_args(argv)

    from azureml.core import Run  # v1 style; outside a job this is v1's offline run, which prints

    run = Run.get_context()
    started = time.perf_counter()
    model = train(args.steps, args.batch_size, args.lr, log=run.log)
    run.log("train_seconds", time.perf_counter() - started)
    run.log("val_auc", evaluate(model))
    os.makedirs(args.output_dir, exist_ok=True)
    torch.save({"state_dict": model.state_dict()}, os.path.join(args.output_dir, "twinbert.pt"))
    if not args.no_export:
        report = export_variants(model, args.output_dir)
        print(report)
        with open(os.path.join(args.output_dir, "export_report.txt"), "w") as f:
            f.write(str(report) + "\n")
        for variant in report.variants:
            run.log(f"onnx_{variant.name}_max_abs_err", variant.max_abs)


if __name__ == "__main__":
    main()
