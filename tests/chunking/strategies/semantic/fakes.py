"""Deterministic embedders for the semantic strategy's tests: topics planted by keyword."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["TopicEmbedder", "topic_sentences"]

TOPICS = ("tea", "volcano", "bicycle", "violin", "茶", "火山")


class TopicEmbedder:
    """A sentence's vector is its topic's axis (the first topic word it holds, else an axis of
    its own) plus a small deterministic noise: sentences of one topic are near-parallel, of two
    topics near-orthogonal. Counts its calls and the texts it was given."""

    def __init__(self, noise: float = 0.02, dimensions: int = 32) -> None:
        self.noise = noise
        self.dimensions = dimensions
        self.calls = 0
        self.texts: list[str] = []

    def __call__(self, texts: Sequence[str]) -> npt.NDArray[np.float64]:
        self.calls += 1
        self.texts.extend(texts)
        rows = np.zeros((len(texts), self.dimensions))
        for row, text in enumerate(texts):
            digest = hashlib.blake2b(text.encode(), digest_size=64).digest()
            noise = np.frombuffer(digest, dtype=np.uint8)[: self.dimensions] / 255.0 - 0.5
            lowered = text.lower()
            axis = next(
                (i for i, topic in enumerate(TOPICS) if topic in lowered),
                len(TOPICS) + digest[0] % (self.dimensions - len(TOPICS)),
            )
            rows[row, axis] = 1.0
            rows[row] += self.noise * noise
        return rows


def topic_sentences(topic: str, count: int, start: int = 0) -> list[str]:
    """`count` distinct sentences about `topic` (Chinese ones for a Chinese topic)."""
    if not topic.isascii():
        return [f"关于{topic}的第{start + i}句话说明了一点事实。" for i in range(count)]
    return [f"The {topic} fact number {start + i} is worth knowing." for i in range(count)]
