"""v1 data objects -> the engine's neutral ``DataInput``/``DataOutput`` (what their ``to_*_spec()`` methods return)."""

from __future__ import annotations

import hashlib
import json
import urllib.parse

from acpt_estimator.arguments import guess_uri_type, v2_input_name, warn_path_on_compute
from acpt_estimator.datastore_paths import datastore_uri
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import v2_name
from acpt_estimator.spec import DataInput, DataOutput

_MODES = {"mount": "mount", "download": "download", "direct": "direct"}


def reference_output(ref) -> DataOutput | None:
    """A DataReference in ``upload`` mode is an output of the job; any other mode is an input."""
    if ref.mode != "upload":
        return None
    name = v2_input_name(ref.data_reference_name)
    warn_path_on_compute(ref.data_reference_name, ref.path_on_compute)
    return DataOutput(name=name, reference_name=ref.data_reference_name,
                      uri=datastore_uri(ref.datastore.name, ref.path_on_datastore or ref.data_reference_name),
                      datastore=ref.datastore.name, path_on_datastore=ref.path_on_datastore or "")


def reference_input(ref) -> DataInput:
    name = v2_input_name(ref.data_reference_name)
    warn_path_on_compute(ref.data_reference_name, ref.path_on_compute)
    path = ref.path_on_datastore or ""
    uri_type = guess_uri_type(path)
    uri = datastore_uri(ref.datastore.name, path if uri_type == "uri_file" or not path else path.rstrip("/") + "/")
    return DataInput(name=name, reference_name=ref.data_reference_name, kind="datastore", mode=_MODES[ref.mode],
                     uri_type=uri_type, uri=uri, datastore=ref.datastore.name, path_on_datastore=path)


def bare_dataset_input(dataset) -> DataInput:
    """v1 names a bare dataset input input__<8hex>; a content hash keeps translations reproducible."""
    key = json.dumps([dataset._definition(), dataset.name, dataset.version,
                      [getattr(d, "name", None) for d, _ in dataset.paths]], sort_keys=True)
    return dataset.as_named_input(f"input__{hashlib.sha256(key.encode()).hexdigest()[:8]}").to_input_spec()


def dataset_input(cfg) -> DataInput:
    """One v2 input: the folder the dataset's paths share (or its data asset); the job gets the definition."""
    dataset = cfg.dataset
    if cfg.source_output is not None and "{run-id}" in cfg.source_output.destination[1]:
        raise UserErrorException(
            f"as_input: the destination {cfg.source_output.destination[1]!r} depends on the run id, which a later "
            "job cannot know; give OutputFileDatasetConfig a destination without {run-id}, or pass the output "
            "to the next step of a Pipeline (steps read the output their producer wrote).")
    mode = "direct" if dataset._kind == "tabular" else cfg.mode
    warn_path_on_compute(cfg.name, cfg.path_on_compute)
    if dataset._kind == "file" and dataset._has_row_steps() and mode != "direct":
        raise UserErrorException(
            f"Input {cfg.name!r}: a file dataset with take/skip/sample steps cannot be mounted or downloaded "
            "(v2 inputs are whole folders). Pass dataset.as_named_input(name) (direct: the job gets the dataset "
            "and its steps), or the dataset without steps.")
    url = dataset._url()
    if url is not None:  # a web file: downloaded for the job (v2: a uri_file input of the URL)
        fields = {"mode": "download", "uri_type": "uri_file", "uri": url}
        relative, folder = [url.rsplit("/", 1)[-1]], urllib.parse.urlsplit(url).path.rsplit("/", 1)[0] + "/"
    else:
        datastore, folder, relative = dataset._base()
        # v2 has no "direct" mode for folders: the job reads mounted files (and the definition for datasets).
        fields = {"mode": "mount" if mode == "direct" else mode, "uri_type": "uri_folder",
                  "uri": f"azureml:{v2_name(dataset.name)}:{dataset.version}" if dataset.name else
                  datastore_uri(datastore.name, folder), "datastore": datastore.name, "path_on_datastore": folder}
    definition = dict(dataset._definition(relative), mode=mode, name=dataset.name, version=dataset.version,
                      id=dataset.id, root=folder)
    return DataInput(name=cfg.name, reference_name=cfg.name, kind="dataset", dataset_name=dataset.name,
                     dataset_version=dataset.version, definition=json.dumps(definition, sort_keys=True), **fields)


def dataset_output(output) -> DataOutput:
    datastore, path = output.destination
    registration = ""
    if output._registration is not None:
        reg = output._registration
        registration = json.dumps({"name": reg.name, "description": reg.description, "tags": reg.tags,
                                   "type": "tabular" if getattr(output, "transformations", ()) else "file",
                                   "transformations": list(getattr(output, "transformations", ())),
                                   "path_glob": getattr(output, "path_glob", "**")},
                                  sort_keys=True)
    store = datastore.name if datastore is not None else "workspaceblobstore"
    return DataOutput(name=output.name, reference_name=output.name, uri=datastore_uri(store, path), datastore=store,
                      path_on_datastore=path, mode=output.mode, registration=registration,
                      overwrite=getattr(output.options, "overwrite", False))
