"""An entry script whose init() always fails."""


def init():
    raise RuntimeError("no model here")


def run(mini_batch):
    return mini_batch
