import argparse, os
p = argparse.ArgumentParser(); p.add_argument("--out"); p.add_argument("--n", type=int)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
open(os.path.join(a.out, "data.txt"), "w").write("\n".join(str(i) for i in range(a.n)))
from azureml.core.run import Run
r = Run.get_context(); r.log("rows", a.n)
print("prep wrote", a.n)
