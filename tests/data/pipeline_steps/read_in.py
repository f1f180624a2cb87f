import argparse, os
p = argparse.ArgumentParser(); p.add_argument("--in", dest="src"); p.add_argument("--out")
a = p.parse_args()
text = open(os.path.join(a.src, "out.txt")).read()
from azureml.core.run import Run
run = Run.get_context()
run.log("read", text)
run.log("parent", run.parent.id if run.parent is not None else "none")
if a.out:
    os.makedirs(a.out, exist_ok=True)
    open(os.path.join(a.out, "copy.txt"), "w").write(text.upper())
