"""An entry script that fails, hangs or drops items on purpose, driven by the files' contents."""
import os
import time


def run(mini_batch):
    out = []
    for path in mini_batch:
        text = open(path).read().strip()
        if text == "raise":
            raise RuntimeError(f"cannot score {os.path.basename(path)}")
        if text == "hang":
            time.sleep(600)
        if text == "once":
            marker = path + ".seen"
            if not os.path.exists(os.environ["FLAKY_STATE"] + os.path.basename(marker)):
                open(os.environ["FLAKY_STATE"] + os.path.basename(marker), "w").close()
                raise RuntimeError("first try fails")
        if text != "skip":
            out.append(os.path.basename(path))
    return out
