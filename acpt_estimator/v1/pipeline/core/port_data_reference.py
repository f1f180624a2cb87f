"""v1 ``PortDataReference``: where a step run's output landed; download it or feed it to a later pipeline."""

from __future__ import annotations

import os
import shutil

from acpt_estimator.exceptions import UserErrorException


class PortDataReference:
    """A step output's data: ``.download(local_path)``, ``.path_on_datastore``, ``.as_mount()`` in a new pipeline."""

    def __init__(self, context, pipeline_run_id, data_reference, step_run=None):
        self._context, self._pipeline_run_id, self._step_run = context, pipeline_run_id, step_run
        self._data_reference = data_reference
        self._name = getattr(data_reference, "data_reference_name", None) or str(data_reference)
        self._folder = None

    @classmethod
    def _at(cls, step_run, name, folder):
        ref = cls(None, getattr(step_run, "pipeline_run_id", None), None, step_run)
        ref._name, ref._folder = name, folder
        return ref

    @property
    def name(self):
        return self._name

    @property
    def datastore_name(self):
        parts = self._datastore_parts()
        return parts[0] if parts else None

    @property
    def datastore(self):
        from acpt_estimator.v1.core.datastore import Datastore

        return Datastore(None, self.datastore_name) if self.datastore_name else None

    @property
    def path_on_datastore(self):
        parts = self._datastore_parts()
        return parts[1] if parts else None

    _path_on_datastore = path_on_datastore  # v1 samples read the private name (HyperDriveStep's metrics file)

    def _datastore_parts(self):
        """(datastore, path): from an ``azureml://datastores/<ds>/paths/<p>`` URI (cloud steps), or from a local
        datastore stand-in folder (``<store>/datastores/<ds>/<path>``)."""
        if self._folder is None:
            return None
        if self._folder.startswith("azureml://datastores/"):
            datastore, _, path = self._folder[len("azureml://datastores/"):].partition("/paths/")
            return datastore, path.rstrip("/")
        marker = os.sep + "datastores" + os.sep
        if marker not in self._folder:
            return None
        rest = self._folder.split(marker, 1)[1]
        datastore, _, path = rest.partition(os.sep)
        return datastore, path.replace(os.sep, "/")

    def download(self, local_path, overwrite=False, show_progress=True):
        """Copy the output's files under ``local_path/<path on datastore>`` (v1's layout); returns that folder."""
        if self._folder is not None and self._folder.startswith("azureml://"):
            from acpt_estimator.v1.core.datastore import Datastore

            workspace = getattr(getattr(self._step_run, "experiment", None), "workspace", None)
            Datastore.get(workspace, self.datastore_name).download(local_path, prefix=self.path_on_datastore,
                                                                   overwrite=overwrite, show_progress=show_progress)
            return os.path.join(local_path, *self.path_on_datastore.split("/"))
        if self._folder is None or not os.path.exists(self._folder):
            raise UserErrorException(f"Output {self._name!r} has no data to download (its folder is gone: "
                                     f"{self._folder}).")
        target = os.path.join(local_path, *(self.path_on_datastore or self._name).split("/"))
        if os.path.isfile(self._folder):  # one file, as a HyperDriveStep's metrics output (v1's layout too)
            if overwrite or not os.path.exists(target):
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(self._folder, target)
            return target
        if os.path.exists(target) and not overwrite:
            for root, _, files in os.walk(self._folder):
                for name in files:
                    dest = os.path.join(target, os.path.relpath(os.path.join(root, name), self._folder))
                    if not os.path.exists(dest):
                        os.makedirs(os.path.dirname(dest), exist_ok=True)
                        shutil.copy2(os.path.join(root, name), dest)
        else:
            shutil.copytree(self._folder, target, dirs_exist_ok=True)
        if show_progress:
            print(f"Downloaded {self._name} to {target}")
        return target

    def _data_reference_for_input(self, input_name=None, mode="mount", path_on_compute=None, overwrite=False):
        from acpt_estimator.v1.data.data_reference import DataReference

        if self.datastore_name is None:
            raise UserErrorException(f"Output {self._name!r} is not on a datastore; pass its folder instead.")
        return DataReference(self.datastore, input_name or self._name, self.path_on_datastore, mode,
                             path_on_compute, bool(overwrite))

    def as_mount(self, input_name=None):
        return self._data_reference_for_input(input_name, "mount")

    def as_download(self, input_name=None, path_on_compute=None, overwrite=None):
        return self._data_reference_for_input(input_name, "download", path_on_compute, overwrite)

    def as_input(self, input_name):
        return self._data_reference_for_input(input_name)

    def create_input_binding(self, input_name=None, mode=None, path_on_compute=None, overwrite=None):
        return self._data_reference_for_input(input_name, mode or "mount", path_on_compute, overwrite)

    def __str__(self):
        return f"$AZUREML_DATAREFERENCE_{self._name}"
