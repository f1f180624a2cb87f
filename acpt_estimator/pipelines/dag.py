"""Checks and order of a PipelineSpec's steps: node names, producers, duplicate outputs, cycles."""

from __future__ import annotations

import re

from ..exceptions import UserErrorException


def node_names(display_names: list[str]) -> list[str]:
    """A unique v2 node name per step (lowercase identifiers), in order: 'Train model' -> 'train_model', repeats
    get '_2', '_3'."""
    taken, names = set(), []
    for display in display_names:
        base = re.sub(r"\W", "_", str(display or "step").lower()).strip("_") or "step"
        if base[0].isdigit():
            base = "step_" + base
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names.append(name)
    return names


def problems(spec) -> list[str]:
    """What is wrong with ``spec`` (empty when it can run): unknown producers, repeated outputs, cycles."""
    found = []
    nodes = {step.name: step for step in spec.steps}
    writers: dict[str, str] = {}
    for step in spec.steps:
        for output in step.produces:
            if output in writers and writers[output] != step.name:
                found.append(f"Output [{output}] is written by two steps ({nodes[writers[output]].display_name} and "
                             f"{step.display_name}); give each PipelineData/OutputFileDatasetConfig its own name.")
            writers.setdefault(output, step.name)
        for name in step.upstream:
            if name not in nodes:
                found.append(f"Step [{step.display_name}] waits for [{name}], which is not in the pipeline.")
        for link in step.links:
            if link.step in nodes and link.output not in nodes[link.step].produces:
                found.append(f"Step [{step.display_name}] input [{link.input_name}] is not connected to any "
                             f"previous step: [{nodes[link.step].display_name}] does not write [{link.output}].")
    cycle = find_cycle(spec)
    if cycle:
        found.append("The pipeline has a cycle: " + " -> ".join(nodes[n].display_name for n in cycle) +
                     ". A step cannot (directly or through others) consume its own output; remove one of the links "
                     "or run_after calls.")
    return found


def find_cycle(spec) -> list[str]:
    """Node names around one cycle (first repeated at the end), or [] when the steps form a DAG."""
    upstream = {step.name: [u for u in step.upstream] for step in spec.steps}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name) -> list[str]:
        state[name] = 1
        path.append(name)
        for before in upstream.get(name, ()):
            if state.get(before) == 1:
                return path[path.index(before):] + [before]
            if before in upstream and state.get(before) is None:
                cycle = visit(before)
                if cycle:
                    return cycle
        state[name] = 2
        path.pop()
        return []

    for step in spec.steps:
        if state.get(step.name) is None:
            cycle = visit(step.name)
            if cycle:
                return list(reversed(cycle))
    return []


def check(spec) -> None:
    """Raise one error listing every problem of ``spec``."""
    found = problems(spec)
    if found:
        raise UserErrorException("The pipeline is not valid:\n  " + "\n  ".join(found))


def topological_order(spec) -> list[str]:
    """Node names so that every step comes after the steps it waits for (given order kept among equals)."""
    check(spec)
    done, order = set(), []
    remaining = [step for step in spec.steps]
    while remaining:
        for step in remaining:
            if all(u in done for u in step.upstream):
                order.append(step.name)
                done.add(step.name)
                remaining.remove(step)
                break
    return order
