"""A BERT sentence encoder with mean pooling in plain torch: the bundled MiniLM without
sentence-transformers.

Loading MiniLM through sentence-transformers imports it and transformers (about 5 s of a 7 s
load on two cores, before a single weight is read); every engine, index run, Serve replica and
budget worker pays it. This module reads the same folder (``config.json``, ``model.safetensors``,
``tokenizer.json``, ``sentence_bert_config.json``) with torch, safetensors and the tokenizers
library alone (about 1.2 s), and computes the same vectors bit for bit: the same layers in the same
order, the same attention kernel and mask, the same batches (texts sorted by length as
sentence-transformers sorts them, padded to the longest of each batch, cut at its
``max_seq_length``). ``tests/integration/test_minilm.py`` compares the two on every run.

It reads only a folder whose ``modules.json`` is a BERT transformer, mean pooling and normalisation;
:func:`fits` says whether one is, and anything else goes to sentence-transformers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

_MODULES = ("sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling")


def fits(folder: str | Path) -> bool:
    """Whether ``folder`` is a model this encoder computes exactly: BERT, mean pooling, on safetensors.

    >>> fits("/nonexistent")
    False
    """
    folder = Path(folder)
    try:
        modules = [m["type"] for m in json.loads((folder / "modules.json").read_text(encoding="utf-8"))]
        pooling = json.loads((folder / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return False
    tail = modules[len(_MODULES) :]
    modes = [k for k, v in pooling.items() if k.startswith("pooling_mode") and v]
    return (
        tuple(modules[: len(_MODULES)]) == _MODULES
        and tail == ["sentence_transformers.models.Normalize"]
        and modes == ["pooling_mode_mean_tokens"]
        and config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and (folder / "model.safetensors").is_file()
        and (folder / "tokenizer.json").is_file()
    )


class BertEncoder:
    """Mean-pooled, L2-normalised BERT sentence vectors on the CPU (``encode`` as sentence-transformers')."""

    def __init__(self, folder: str | Path) -> None:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        folder = Path(folder)
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        st_config = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        self._torch = torch
        self._weights = {k.removeprefix("bert."): v for k, v in load_file(str(folder / "model.safetensors")).items()}
        self._heads = int(config["num_attention_heads"])
        self._layers = int(config["num_hidden_layers"])
        self._eps = float(config["layer_norm_eps"])
        self._dim = int(config["hidden_size"])
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(int(st_config.get("max_seq_length") or config["max_position_embeddings"]))
        pad = _pad_token(folder)
        self._tokenizer.enable_padding(pad_id=self._tokenizer.token_to_id(pad), pad_token=pad)

    def get_embedding_dimension(self) -> int:
        return self._dim

    def encode(self, texts: list[str], *, batch_size: int = 32, **_: Any) -> np.ndarray:
        """One unit-length float32 row per text, in input order."""
        # longest first, with numpy's default sort as sentence-transformers has it: ties in the
        # same order put the same texts in one batch, padded alike, so the floats come out the same
        order = np.argsort([-len(t) for t in texts])
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        torch = self._torch
        for start in range(0, len(texts), batch_size):
            rows = order[start : start + batch_size]
            encoded = self._tokenizer.encode_batch([texts[i].strip() for i in rows])
            ids = torch.tensor([e.ids for e in encoded], dtype=torch.long)
            mask = torch.tensor([e.attention_mask for e in encoded], dtype=torch.long)
            out[rows] = self._forward(ids, mask).numpy()
        return out

    def _forward(self, ids: Any, mask: Any) -> Any:
        torch = self._torch
        F = torch.nn.functional
        w = self._weights

        def norm(x: Any, name: str) -> Any:
            return F.layer_norm(x, (x.shape[-1],), w[f"{name}.weight"], w[f"{name}.bias"], self._eps)

        def dense(x: Any, name: str) -> Any:
            return F.linear(x, w[f"{name}.weight"], w[f"{name}.bias"])

        with torch.inference_mode():
            batch, length = ids.shape
            x = F.embedding(ids, w["embeddings.word_embeddings.weight"])
            x = x + F.embedding(torch.zeros_like(ids), w["embeddings.token_type_embeddings.weight"])
            x = x + F.embedding(torch.arange(length).unsqueeze(0), w["embeddings.position_embeddings.weight"])
            x = norm(x, "embeddings.LayerNorm")
            # no mask where nothing is padded, a boolean one where something is: as transformers passes them
            attend = None if bool(mask.all()) else mask.bool()[:, None, None, :].expand(batch, 1, length, length)
            head = x.shape[-1] // self._heads
            for i in range(self._layers):
                p = f"encoder.layer.{i}"
                q, k, v = (
                    dense(x, f"{p}.attention.self.{n}").view(batch, length, -1, head).transpose(1, 2)
                    for n in ("query", "key", "value")
                )
                a = F.scaled_dot_product_attention(q, k, v, attn_mask=attend, dropout_p=0.0, scale=head**-0.5)
                a = a.transpose(1, 2).contiguous().reshape(batch, length, -1).contiguous()
                x = norm(dense(a, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
                h = F.gelu(dense(x, f"{p}.intermediate.dense"))
                x = norm(dense(h, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
            m = mask.unsqueeze(-1).expand(x.size()).to(x.dtype)
            pooled = torch.sum(x * m, 1) / torch.clamp(m.sum(1), min=1e-9)
            return F.normalize(pooled, p=2, dim=1)


def _pad_token(folder: Path) -> str:
    for name in ("special_tokens_map.json", "tokenizer_config.json"):
        try:
            pad = json.loads((folder / name).read_text(encoding="utf-8")).get("pad_token")
        except (OSError, ValueError):
            continue
        if isinstance(pad, dict):
            pad = pad.get("content")
        if isinstance(pad, str):
            return pad
    return "[PAD]"
