"""A workspace's v2 data assets as v1 datasets (the workspace's datasets service): the v1 definition is kept in the
asset's properties; blobs of a datastore are listed for a dataset's files. Records as ``backends/local/datasets.py``."""

from __future__ import annotations

import json
import re

from ...datastore_paths import datastore_uri, is_url, parse_datastore_uri
from ...exceptions import UserErrorException

DEFINITION_PROPERTY = "acpt.dataset"  # a data asset's v1 definition: type, paths under the asset's folder, steps


def _record(workspace, asset) -> dict:
    """A data asset as a dataset record: its paths on a datastore (or its web URL) and v1's definition."""
    from .data_ops import asset_path, asset_v1_name

    definition = json.loads((asset.properties or {}).get(DEFINITION_PROPERTY) or "null") or {}
    fields = {"type": definition.get("type", "file"), "transformations": definition.get("transformations", ()),
              "name": asset_v1_name(asset), "version": str(asset.version), "id": asset.id,
              "description": asset.description, "tags": dict(asset.tags or {})}
    parsed = parse_datastore_uri(asset_path(workspace, asset))
    if parsed is None and is_url(asset.path):
        return dict(fields, paths=[(None, asset.path)])
    if parsed is None:
        raise UserErrorException(
            f"Data asset {asset.name}:{asset.version} ({asset.type}, {asset.path}) is not a datastore path; v1 "
            "datasets here read datastore paths. Load it with azure-ai-ml (ml_client.data.get) or mltable.")
    store, path = parsed
    relative = definition.get("paths")
    return dict(fields, paths=[(store, path + rel) for rel in relative] if relative else [(store, path)])


class CloudDatasets:
    def __init__(self, workspace):
        self.workspace = workspace

    def register(self, dataset, name, description=None, tags=None, create_new_version=False) -> dict:
        """A v2 data asset: a uri_file of a web file, else a uri_folder of the folder the paths share, with the
        dataset's definition (paths relative to it, kind, transformations) in its properties."""
        from . import data_ops

        url = dataset._url()
        if url is not None:  # a web file: a uri_file asset of that URL
            uri, uri_type, relative = url, "uri_file", [""]
        else:
            datastore, folder, relative = dataset._base()
            uri, uri_type = datastore_uri(datastore.name, folder), "uri_folder"
        definition = json.dumps(dataset._definition(relative), sort_keys=True)
        asset = data_ops.register_dataset(self.workspace, name, uri, uri_type, description, tags, create_new_version,
                                          {DEFINITION_PROPERTY: definition})
        return _record(self.workspace, asset)

    def get(self, name, version="latest") -> dict:
        from . import data_ops

        return _record(self.workspace, data_ops.get_dataset(self.workspace, name, version))

    def get_by_id(self, dataset_id) -> dict:
        match = re.search(r"/data/([^/]+)/versions/([^/]+)$", dataset_id)
        if match is None:
            raise UserErrorException(f"Dataset.get_by_id(id={dataset_id!r}): pass a data asset id ending in "
                                     "/data/<name>/versions/<version> (dataset.id), or use Dataset.get_by_name.")
        return self.get(match[1], match[2])

    def names(self) -> list:
        from . import data_ops

        return data_ops.dataset_names(self.workspace)

    def update(self, name, version, description=None, tags=None) -> dict:
        from . import data_ops

        asset = data_ops.get_dataset(self.workspace, name, version)
        return _record(self.workspace, data_ops.update_dataset(self.workspace, asset, description, tags))

    def unregister(self, name) -> None:
        from . import data_ops

        data_ops.archive_dataset(self.workspace, name)

    def files(self, datastore, path: str) -> list:
        """[(source, relative path)] of the blobs ``path`` (a glob) names; a source is ``('blob', datastore, name)``."""
        from ...job_runtime.acpt_datasets import select, split_glob
        from . import data_ops

        names = data_ops.list_blobs(self.workspace, datastore.name, split_glob(path.lstrip("/"))[0])
        return [(("blob", datastore, rel), shown) for rel, shown in select(names, path)]
