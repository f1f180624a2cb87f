"""The code a DataTransferStep runs (locally and as a v2 command node): copy one folder or file to another."""

import os

CODE_DIR = os.path.dirname(os.path.abspath(__file__))
SCRIPT = "copy_data.py"
