"""Workspace-scoped services: the one place that picks the local store or the Azure ML workspace for a workspace.

``services_for(workspace)`` returns a ``LocalServices`` (``backends/local/services.py``) or a ``CloudServices``
(``backends/azureml/services.py``); v1 classes call it instead of branching on the workspace themselves. Both have
the same members, each answering in neutral forms (dicts, handles), never v1 objects of its own making (environments
are v1 definitions handed in, read through their methods and copied):

  compute      stand_ins (True: any name is this machine); get(name) -> record (None: a stand-in); list();
               begin_create(name, build) / begin(name, operation, action) -> poller (None: nothing in Azure);
               wait(name, poller, timeout_seconds, show_output, min_node_count) -> False when there is nothing to read;
               update_scale(name, min, max, idle) -> record or None; nodes(name); vm_sizes(location, compute_type);
               active_runs(name, experiment_for, statuses, run_type, tags, properties) -> (handle, experiment)
  datasets     register(dataset, name, description, tags, create_new_version) / get(name, version) /
               get_by_id(id) / update(name, version, description, tags) -> dataset records (v1's fields, paths as
               [datastore name or None, path]); names(); unregister(name); files(datastore, glob) -> [(source, path)]
  datastores   describe(name) -> v1's fields; list_all() -> [(name, fields)]; default_name(); register(name, fields,
               overwrite, secret, secret_kind); set_default(name); unregister(name); upload(name, src_dir,
               target_path, overwrite, show_progress, files); download(name, target_path, prefix, overwrite,
               show_progress) -> count
  environments register(env) -> the registered copy; find(name, version, load) -> a definition of the local store
               or None; resolve(name, version, label) -> (image, version) of a workspace environment or None;
               names(); image(name, version, label) -> (image, version) or None; where, build_note (build's log)
  experiments  start_logging(experiment, display_name) -> run handle; portal_url(experiment) -> str;
               tags(name) -> an object with read()/update(dict)/remove(keys), or None where tags cannot be kept
  models       get(name, version) / list(name) / register(...) -> model records (dicts of v1's fields);
               update(record); delete(record); download(record, target_dir, exist_ok) -> path; path_here(name,
               version) -> the local registry's folder, None when the model must be downloaded
  pipeline_endpoints  publish(name, description, published_id) / get(name) / add(name, published_id, make_default)
               / set_default(name, version) / rename(name, new_name) / set_status(name, status) -> endpoint records
               (id, name, description, status, defaultVersion, versions {version: published id}, endpoint);
               list(); submit(record, version, published, experiment, values) -> pipeline run handle
  published_pipelines  publish(spec, name, description, version, continue_on_step_failure) / get(id) /
               set_status(id, status) -> published records (id, name, version, status, continueOnStepFailure,
               totalRunSteps, stepNames, spec, componentId in Azure); list(active_only); spec(record) -> PipelineSpec;
               endpoint(id, component_id) -> its URL; submit(record, experiment, values, continue_on_step_failure)
  schedules    create(name, published, experiment_name, recurrence, description, pipeline_parameters, values_of,
               continue_on_step_failure, wait_timeout, endpoint_id, endpoint) / get(id) / update(id, name,
               description, recurrence, pipeline_parameters, values_of, status, continue_on_step_failure,
               wait_timeout) / set_enabled(id, enabled, wait_timeout) -> schedule records; list(active_only);
               runs(id) -> (experiment name, run ids newest first); values_of(spec) -> parameter values, called
               where the values are sent when the schedule is made
  secrets      set(name, value, content_type); read(name) -> {"value", "content_type"} or None; names() -> list;
               delete(name) -> False when there was no such secret
  workspace    details() -> v1's get_details() dict; update(friendly_name, description, tags, image_build_compute);
               mlflow_tracking_uri(details) -> str; sync_keys(no_wait)

Runs are found and listed across both stores by ``acpt_estimator.backends`` (``find_run``, ``list_runs``): a local
run stays reachable from a cloud workspace. Before there is a workspace, ``workspaces()`` is the directory that
gets, creates and lists them (local while local runs are forced), answering workspace references (dicts).
"""

from __future__ import annotations

from .locality import is_local  # noqa: F401 - the services' rule, asked through this module too


def services_for(workspace):
    """The services of ``workspace``, local or cloud (chosen here, on each call: forcing local runs may be switched
    on for a workspace made earlier)."""
    if is_local(workspace):
        from .backends.local.services import LocalServices

        return LocalServices(workspace)
    from .backends.azureml.services import CloudServices

    return CloudServices(workspace)


def workspaces():
    """The workspace directory: local while local runs are forced (every workspace is then a local one unless Azure
    coordinates are given), else Azure's (get, create, list)."""
    from .target import local_mode

    if local_mode():
        from .backends.local.workspaces import LocalWorkspaces

        return LocalWorkspaces()
    from .backends.azureml.workspaces import CloudWorkspaces

    return CloudWorkspaces()
