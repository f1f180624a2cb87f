import argparse, os
p = argparse.ArgumentParser(); p.add_argument("--out"); p.add_argument("--text", default="hello")
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
open(os.path.join(a.out, "out.txt"), "w").write(a.text)
