"""HyperDrive engine: v2 sweep translation, the local sweep scheduler and its samplers and early termination."""
