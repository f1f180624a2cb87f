"""Stand-in training script for the translation golden files (never run)."""
print("train")
