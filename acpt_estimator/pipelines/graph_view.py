"""A read-only view of a PipelineSpec's graph: steps (nodes) and the data/order edges between them."""

from __future__ import annotations


class GraphView:
    """``pipeline.graph``: ``nodes`` (node name -> step name), ``edges`` ((from node, to node, output or None))."""

    def __init__(self, spec):
        self._spec = spec

    @property
    def nodes(self) -> dict:
        return {step.name: step.display_name for step in self._spec.steps}

    @property
    def edges(self) -> list:
        found = []
        for step in self._spec.steps:
            found += [(link.step, step.name, link.output) for link in step.links]
            found += [(before, step.name, None) for before in step.run_after]
        return found

    @property
    def params(self) -> dict:
        return {p.name: p.default for p in self._spec.parameters}

    def __str__(self) -> str:
        lines = [f"Graph with {len(self.nodes)} steps:"]
        lines += [f"  {a} -> {b}" + (f" [{o}]" if o else " (run_after)") for a, b, o in self.edges]
        return "\n".join(lines)

    __repr__ = __str__
