"""The code a HyperDriveStep's v2 follow-up node runs: v1's TrainingOutputs written from the sweep's trials."""

import os

CODE_DIR = os.path.dirname(os.path.abspath(__file__))
SCRIPT = "write_training_outputs.py"
