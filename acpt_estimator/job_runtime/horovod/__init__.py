"""``horovod`` in acpt-estimator jobs: the real Horovod when one is installed, else a layer over torch.distributed.

This folder's parent is put first on the ranks' PYTHONPATH, so this file runs for every ``import horovod``.
ACPT_ESTIMATOR_HOROVOD=auto (default) looks for a real horovod on the rest of sys.path and, when found, loads it
in place of this package; =layer always serves the layer, =real insists on the real one.
"""

import importlib.util as _util
import os as _os

_spec = _util.spec_from_file_location("_acpt_horovod_select", _os.path.join(_os.path.dirname(__file__), "_select.py"))
_select = _util.module_from_spec(_spec)
_spec.loader.exec_module(_select)

# When use_real() is True it has put the real horovod into sys.modules['horovod'], which the import returns.
if not _select.use_real(__name__, __file__):
    __version__ = "0.28.1"  # the Horovod API this layer follows
    _acpt_layer = True  # lets scripts and tests tell the implementations apart
del _spec, _util, _os
