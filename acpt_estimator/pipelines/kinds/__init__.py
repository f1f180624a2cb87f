"""Step kinds of a pipeline: each module turns a StepSpec into a local job and a v2 node (see ``..spec``)."""
