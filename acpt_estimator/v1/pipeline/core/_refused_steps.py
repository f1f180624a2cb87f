"""Steps with no v2 equivalent: they construct (so pipelines build and validate) and refuse when submitted."""

from __future__ import annotations

from acpt_estimator.pipelines.spec import StepSpec
from acpt_estimator.v1._refusal import refusal_message
from acpt_estimator.v1.pipeline.core.builder import PipelineStep


class NoEquivalentStep(PipelineStep):
    """A v1 step kind v2 cannot run: kept as given; the pipeline refuses at submit naming the v2 replacement."""

    _why = ""
    _replacement = ""

    def __init__(self, name=None, inputs=None, outputs=None, **parameters):
        self._parameters = dict(parameters)
        outputs = [o for o in list(outputs or []) + [parameters.get("output")] if o is not None]
        super().__init__(name or type(self).__name__.lower(), [], outputs)
        self._declared_inputs = list(inputs or [])

    def _to_step_spec(self, context) -> StepSpec:
        message = refusal_message(f"{type(self).__name__} {self.name!r}", self._why, self._replacement)
        return StepSpec(name=context.node_name, kind="refused", job=None, display_name=self.name,
                        refusal=message, produces=tuple(getattr(o, "_output_name", getattr(o, "name", ""))
                                                       for o in self._outputs))


def no_equivalent(name: str, why: str, replacement: str, module: str, params: tuple) -> type:
    """A step class ``name`` taking v1's parameter names ``params`` (all keyword-compatible)."""

    def __init__(self, *args, **kwargs):
        given = dict(zip(params, args))
        given.update(kwargs)
        unknown = sorted(set(given) - set(params))
        if unknown:
            raise TypeError(f"{name}() got unexpected keyword arguments {unknown}")
        NoEquivalentStep.__init__(self, given.pop("name", None), given.pop("inputs", None), given.pop("outputs", None),
                                  **given)

    import inspect

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] +
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None) for p in params])
    return type(name, (NoEquivalentStep,), {"__init__": __init__, "_why": why, "_replacement": replacement,
                                            "__module__": module, "__doc__": f"v1 ``{name}``: builds, refuses at "
                                            f"submit. {why} Use instead: {replacement}"})
