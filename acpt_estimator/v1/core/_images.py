"""v1's image constants, naming the images acpt-estimator's translation uses (v1: its own OpenMPI base images).

``DEFAULT_CPU_IMAGE``: the CPU job image (``use_gpu=False``, CPU environments); ``DEFAULT_GPU_IMAGE``: the default
ACPT curated image, which GPU jobs use (it reads the ACPT catalog, so it is resolved on first use).
"""

from acpt_estimator import environments

DEFAULT_CPU_IMAGE = environments.DEFAULT_CPU_IMAGE
DEFAULT_GPU_IMAGE = environments.default_acpt().image
MPI_CPU_IMAGE, MPI_GPU_IMAGE = DEFAULT_CPU_IMAGE, DEFAULT_GPU_IMAGE  # v1: the same images
