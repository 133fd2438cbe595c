"""Projection heads from each graph's spaces into one, trained with InfoNCE on anchor pairs.

Each side has two inputs: the text vector of its name (the index's embedder) and a graph vector
(node2vec over the SKG). An SKG node's graph vector is its own node2vec row; a TKG entity has no
place in the SKG's walks, so its graph vector is the mean of the rows of the products whose pages
mention it: the entity sits where its products sit.

A head is ``normalise(text + mlp([text; graph]))`` with the MLP's last layer starting at zero: before
training the aligner *is* the text-embedding baseline, and training can only move away from it as far
as the held-out anchors reward (early stopping keeps the best epoch, epoch 0 included). So the aligner
is never worse on held-out anchors than the text embedding it starts from, and any gain is the
graph's and the anchors' doing.
"""

from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from dualgraph.align.anchors import Anchor
from dualgraph.align.loss import info_nce

__all__ = ["AlignerHeads", "TrainConfig", "TrainResult", "recall_at", "train_heads"]


class TrainConfig(BaseModel):
    """How the projection heads are trained."""

    model_config = ConfigDict(extra="forbid")

    temperature: float = Field(0.07, gt=0, description="InfoNCE temperature (cosines are divided by it).")
    hidden: int = Field(256, ge=8, description="Width of each head's hidden layer.")
    lr: float = Field(1e-3, gt=0, description="Adam learning rate.")
    weight_decay: float = Field(1e-4, ge=0, description="AdamW weight decay.")
    batch_size: int = Field(64, ge=2, description="Anchor pairs per batch (the other pairs are the negatives).")
    max_epochs: int = Field(200, ge=0, description="Upper bound on passes over the training anchors.")
    patience: int = Field(15, ge=1, description="Epochs without a better validation score before stopping.")
    seed: int = Field(0, description="Seed of the initial weights and of the batch order.")
    device: str = Field("auto", description="'auto' (CUDA when present, else CPU), 'cpu' or 'cuda'.")


class _Head(nn.Module):
    def __init__(self, text_dim: int, graph_dim: int, hidden: int) -> None:
        super().__init__()
        last = nn.Linear(hidden, text_dim)
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
        self.mlp = nn.Sequential(nn.Linear(text_dim + graph_dim, hidden), nn.ReLU(), last)

    def forward(self, text: torch.Tensor, graph: torch.Tensor) -> torch.Tensor:
        out = text + self.mlp(torch.cat([text, graph], dim=1))
        return nn.functional.normalize(out, dim=1)


class AlignerHeads(nn.Module):
    """One head per graph, into the text space."""

    def __init__(self, text_dim: int, graph_dim: int, hidden: int) -> None:
        super().__init__()
        self.dims = {"text_dim": text_dim, "graph_dim": graph_dim, "hidden": hidden}
        self.skg = _Head(text_dim, graph_dim, hidden)
        self.tkg = _Head(text_dim, graph_dim, hidden)

    @torch.no_grad()
    def project(self, side: str, text: np.ndarray, graph: np.ndarray, *, batch: int = 8192) -> np.ndarray:
        """Rows projected by the ``side`` ("skg" or "tkg") head, float32, L2-normalised."""
        head = self.skg if side == "skg" else self.tkg
        device = next(self.parameters()).device
        out = []
        for s in range(0, len(text), batch):
            t = torch.from_numpy(np.ascontiguousarray(text[s : s + batch])).to(device)
            g = torch.from_numpy(np.ascontiguousarray(graph[s : s + batch])).to(device)
            out.append(head(t, g).cpu().numpy())
        return np.concatenate(out).astype(np.float32) if out else np.zeros((0, text.shape[1]), np.float32)

    def save(self, path) -> None:
        torch.save({"dims": self.dims, "state": self.state_dict()}, path)

    @classmethod
    def load(cls, path) -> AlignerHeads:
        saved = torch.load(path, map_location="cpu", weights_only=True)
        heads = cls(**saved["dims"])
        heads.load_state_dict(saved["state"])
        return heads


def recall_at(
    queries: np.ndarray, base: np.ndarray, gold: list[set[int]], ks: tuple[int, ...] = (1, 10)
) -> dict[str, float]:
    """Recall@k of ``gold[i]`` among the ``k`` rows of ``base`` nearest ``queries[i]`` (cosine; FAISS, batched),
    and the mean reciprocal rank within the largest k.

    >>> base = np.eye(3, dtype="float32"); q = np.array([[1, 0, 0], [0, 0.9, 0.1]], "float32")
    >>> recall_at(q, base, [{0}, {2}], ks=(1, 2))
    {'recall@1': 0.5, 'recall@2': 1.0, 'mrr@2': 0.75}
    """
    from dualgraph.align.candidates import knn

    if not gold:
        return {**{f"recall@{k}": 0.0 for k in ks}, f"mrr@{max(ks)}": 0.0}
    _, ids = knn(queries, base, k=max(ks))
    out = {f"recall@{k}": float(np.mean([bool(set(ids[i, :k].tolist()) & g) for i, g in enumerate(gold)])) for k in ks}
    rr = []
    for i, g in enumerate(gold):
        hit = [r for r, j in enumerate(ids[i].tolist()) if j in g]
        rr.append(1.0 / (hit[0] + 1) if hit else 0.0)
    out[f"mrr@{max(ks)}"] = float(np.mean(rr))
    return out


@dataclass
class TrainResult:
    heads: AlignerHeads
    best_epoch: int
    epochs_run: int
    seconds: float
    history: list[dict[str, float]] = field(default_factory=list)


def _device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def train_heads(
    skg_text: np.ndarray,
    skg_graph: np.ndarray,
    tkg_text: np.ndarray,
    tkg_graph: np.ndarray,
    train: list[Anchor],
    val: list[Anchor],
    config: TrainConfig,
    *,
    progress: bool = False,
) -> TrainResult:
    """Heads trained on ``train`` anchors, the epoch with the best validation MRR@10 kept.

    Validation ranks every SKG node for each ``val`` entity (the anchor's node and its
    same-named ``also`` nodes count as hits). Without validation anchors the last epoch is kept.
    """
    t0 = time.perf_counter()
    torch.manual_seed(config.seed)
    rng = random.Random(config.seed)
    device = _device(config.device)
    heads = AlignerHeads(skg_text.shape[1], skg_graph.shape[1], config.hidden).to(device)
    st, sg = torch.from_numpy(skg_text).to(device), torch.from_numpy(skg_graph).to(device)
    tt, tg = torch.from_numpy(tkg_text).to(device), torch.from_numpy(tkg_graph).to(device)
    opt = torch.optim.AdamW(heads.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    gold = [{a.skg, *a.also} for a in val]
    val_rows = np.array([a.text for a in val], dtype=np.int64)

    def score() -> float:
        if not val:
            return 0.0
        heads.eval()
        base = heads.project("skg", skg_text, skg_graph)
        q = heads.project("tkg", tkg_text[val_rows], tkg_graph[val_rows])
        heads.train()
        return recall_at(q, base, gold)["mrr@10"]

    best, best_epoch, best_state = score(), 0, copy.deepcopy(heads.state_dict())
    history = [{"epoch": 0, "loss": float("nan"), "val_mrr": best}]
    epoch = 0
    pairs = [(a.skg, a.text) for a in train]
    from dualgraph.progress import progress_bar

    bar = progress_bar("train aligner", total=config.max_epochs, unit="epoch", enabled=progress)
    for epoch in range(1, config.max_epochs + 1):
        if len(pairs) < 2:
            break
        rng.shuffle(pairs)
        losses = []
        for s in range(0, len(pairs), config.batch_size):
            chunk = pairs[s : s + config.batch_size]
            if len(chunk) < 2:
                continue
            si = torch.tensor([p[0] for p in chunk], device=device)
            ti = torch.tensor([p[1] for p in chunk], device=device)
            loss = info_nce(heads.skg(st[si], sg[si]), heads.tkg(tt[ti], tg[ti]), temperature=config.temperature)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        val_score = score()
        history.append(
            {"epoch": epoch, "loss": float(np.mean(losses)) if losses else float("nan"), "val_mrr": val_score}
        )
        bar.update(1)
        bar.set_postfix(val_mrr=f"{val_score:.3f}", best=best_epoch, refresh=False)
        if val_score > best + 1e-9 or not val:
            best, best_epoch, best_state = val_score, epoch, copy.deepcopy(heads.state_dict())
        elif epoch - best_epoch >= config.patience:
            break
    bar.close()
    heads.load_state_dict(best_state)
    heads.eval()
    return TrainResult(heads.cpu(), best_epoch, epoch, time.perf_counter() - t0, history)
