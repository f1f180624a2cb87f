"""TwinBERT-style relevance model: twin transformer encoders, a crossing layer, a logistic output; plus data and AUC."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

VOCAB, TOPICS, TOPIC_TOKENS, GENERIC = 1000, 10, 20, 200  # ids [0, 200) generic words, then 10 topics of 20 ids


class Encoder(nn.Module):
    """Token + learned position embeddings, a small transformer encoder, mean pooling to one vector."""

    def __init__(self, vocab=VOCAB, dim=64, heads=4, ff=128, layers=2, max_len=128):
        super().__init__()
        self.tokens = nn.Embedding(vocab, dim)
        self.positions = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, ff, dropout=0.1, batch_first=True)
        # enable_nested_tensor=False: the nested-tensor fast path is for padded batches and does not export.
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], device=ids.device)
        return self.encoder(self.tokens(ids) + self.positions(positions)).mean(dim=1)


class TwinBERT(nn.Module):
    """Query and document encoded apart (documents can be encoded offline), then crossed and scored in [0, 1]."""

    def __init__(self, vocab=VOCAB, dim=64, heads=4, ff=128, layers=2, max_len=128):
        super().__init__()
        self.query_encoder = Encoder(vocab, dim, heads, ff, layers, max_len)
        self.doc_encoder = Encoder(vocab, dim, heads, ff, layers, max_len)
        self.crossing = nn.Sequential(nn.Linear(4 * dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, query, doc):
        q, d = self.query_encoder(query), self.doc_encoder(doc)
        logit = self.crossing(torch.cat([q, d, q * d, (q - d).abs()], dim=-1)).squeeze(-1)
        return torch.sigmoid(logit)


def make_model(**kwargs) -> TwinBERT:
    """The factory the CLI takes: ``acpt-estimator onnx export samples/twinbert_onnx/model.py:make_model``."""
    return TwinBERT(**kwargs)


def make_pairs(n, seed=0, query_len=8, doc_len=32, label_noise=0.1):
    """Synthetic query/document pairs: relevant when both are about the same topic; 10 % of labels flipped.

    Queries draw 70 % of their words from their topic, documents 40 %; the rest are generic words. Label noise keeps
    the best reachable AUC near 0.9, so that a quantised model's small ranking errors show up in its AUC.
    """
    rng = np.random.default_rng(seed)
    q_topic = rng.integers(0, TOPICS, n)
    relevant = rng.random(n) < 0.5
    d_topic = np.where(relevant, q_topic, (q_topic + rng.integers(1, TOPICS, n)) % TOPICS)
    query = _words(rng, q_topic, query_len, 0.7)
    doc = _words(rng, d_topic, doc_len, 0.4)
    labels = relevant ^ (rng.random(n) < label_noise)
    return torch.from_numpy(query), torch.from_numpy(doc), torch.from_numpy(labels.astype(np.float32))


def _words(rng, topics, length, topical):
    generic = rng.integers(0, GENERIC, (len(topics), length))
    on_topic = GENERIC + topics[:, None] * TOPIC_TOKENS + rng.integers(0, TOPIC_TOKENS, (len(topics), length))
    return np.where(rng.random((len(topics), length)) < topical, on_topic, generic).astype(np.int64)


def auc(labels, scores) -> float:
    """ROC AUC as the Mann-Whitney U statistic, ties ranked by their average (no scikit-learn needed)."""
    labels = np.asarray(labels).astype(bool).ravel()
    scores = np.asarray(scores, dtype=np.float64).ravel()
    _, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2)[inverse]  # 1-based, equal scores share their average rank
    positives, negatives = labels.sum(), (~labels).sum()
    if positives == 0 or negatives == 0:
        return float("nan")
    return float((ranks[labels].sum() - positives * (positives + 1) / 2) / (positives * negatives))
