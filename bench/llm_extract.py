"""Entity extraction through our batch LLM stage vs vLLM's own ``LLM.chat`` on the same prompts.

    .venv-vllm/bin/python bench/llm_extract.py --model ~/.cache/dualgraph/smollm2-135m-instruct --chunks 48
    (a GPU: add --accelerator-type H200 --dtype auto; no --eager)

Both sides get the very same requests (the extractor's prompt, its JSON schema as guided
decoding, its max_tokens) and the same engine arguments. Each side runs in its own child
process, so one engine's memory and threads never slow the other:

- baseline: ``vllm.LLM(...)`` then one ``LLM.chat`` call over every conversation;
- ours: :func:`dualgraph.llm_batch.steps.extract_entities` on Ray Data (preprocess, chat
  template, tokenizer, engine actor, detokenizer, answer checks), rows in and rows out.

Prints generated tokens per second for each, end to end (engine start included, as a user
pays it) and, for the baseline, for generation alone; the issue's goal is ours / baseline
≥ 0.8 end to end. Writes OUT.md and OUT.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_FEATURES = ["stereo speakers", "an IP68 rating", "wireless charging", "a 120 Hz display", "5G", "a stylus", "NFC"]
_LACKS = ["a headphone jack", "a microSD slot", "an IR blaster", "face unlock"]


def chunk_rows(n: int, *, seed: int = 7) -> list[dict]:
    """Deterministic product prose, a few sentences each, with stated and negated features."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        has = rng.sample(_FEATURES, 3)
        text = (
            f"The Vela {100 + i} is a {rng.choice(['slim', 'rugged', 'compact'])} phone with a "
            f"{rng.randint(60, 69) / 10} inch screen and a {rng.randint(40, 60) * 100} mAh battery. "
            f"It offers {has[0]}, {has[1]} and {has[2]}. It has no {rng.choice(_LACKS)}. "
            f"Launched in {rng.choice(['March', 'June', 'October'])} {rng.randint(2021, 2025)}."
        )
        rows.append(
            {
                "chunk_id": f"c{i}",
                "doc_id": f"d{i}",
                "text": text,
                "section": "Overview",
                "ordinal": 0,
                "products": [f"http://example.org/p{i}"],
            }
        )
    return rows


def _engine_kwargs(args: argparse.Namespace) -> dict:
    from dualgraph.llm_batch.config import EngineOptions

    options = EngineOptions(dtype=args.dtype, enforce_eager=args.eager, max_model_len=args.max_model_len)
    return options.engine_kwargs(on_gpu=args.accelerator_type is not None)


def run_baseline(args: argparse.Namespace) -> dict:
    from vllm import LLM, SamplingParams
    from vllm.sampling_params import StructuredOutputsParams

    from dualgraph.tkg.extract_llm import LLMExtractor
    from dualgraph.tkg.model import Chunk

    extractor = LLMExtractor(None)  # type: ignore[arg-type]  # builds requests only
    requests = [extractor.request(Chunk(**{**r, "products": tuple(r["products"])})) for r in chunk_rows(args.chunks)]
    t0 = time.perf_counter()
    llm = LLM(model=args.model, **_engine_kwargs(args))
    t1 = time.perf_counter()
    params = [
        SamplingParams(
            temperature=r.temperature,
            max_tokens=r.max_tokens,
            structured_outputs=StructuredOutputsParams(json=json.dumps(r.schema)),
        )
        for r in requests
    ]
    outputs = llm.chat([list(r.messages) for r in requests], params, use_tqdm=False)
    t2 = time.perf_counter()
    generated = sum(len(o.outputs[0].token_ids) for o in outputs)
    return {"generated_tokens": generated, "start_s": t1 - t0, "generate_s": t2 - t1, "total_s": t2 - t0}


def run_ours(args: argparse.Namespace) -> dict:
    import ray
    import ray.data

    from dualgraph.llm_batch.config import LLMBatchConfig
    from dualgraph.llm_batch.steps import extract_entities

    ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
    config = LLMBatchConfig(
        backend="vllm",
        model=args.model,
        batch_size=args.batch_size,
        accelerator_type=args.accelerator_type,
        engine={"dtype": args.dtype, "enforce_eager": args.eager, "max_model_len": args.max_model_len},
    )
    t0 = time.perf_counter()
    rows = extract_entities(ray.data.from_items(chunk_rows(args.chunks)), config).take_all()
    t1 = time.perf_counter()
    ray.shutdown()
    return {
        "generated_tokens": sum(r["completion_tokens"] for r in rows),
        "rows": len(rows),
        "failed_rows": sum(1 for r in rows if r["problem"]),
        "total_s": t1 - t0,
    }


def _child(part: str, args: argparse.Namespace) -> dict:
    # the figures come back in a file: vLLM and Ray write their own lines to stdout
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result.json"
        cmd = [sys.executable, __file__, "--part", part, "--result-file", str(result), *sys.argv[1:]]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
        if done.returncode != 0 or not result.exists():
            raise SystemExit(f"{part} run failed ({done.returncode}):\n{done.stderr[-3000:]}")
        return json.loads(result.read_text(encoding="utf-8"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="a model folder vLLM can load")
    ap.add_argument("--chunks", type=int, default=48, help="chunks to extract from")
    ap.add_argument("--batch-size", type=int, default=16, help="rows per engine call (ours)")
    ap.add_argument("--accelerator-type", default=None, help="GPU type (None: the engine runs on CPU)")
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--max-model-len", type=int, default=2048)
    ap.add_argument("--eager", action=argparse.BooleanOptionalAction, default=True, help="enforce_eager (CPU: yes)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench/results/llm_extract")
    ap.add_argument("--part", choices=("baseline", "ours"), help=argparse.SUPPRESS)
    ap.add_argument("--result-file", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.model = str(Path(args.model).expanduser())
    if args.accelerator_type is None:
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "2")
    if args.part:
        figures = run_baseline(args) if args.part == "baseline" else run_ours(args)
        args.result_file.write_text(json.dumps(figures), encoding="utf-8")
        return
    base, ours = _child("baseline", args), _child("ours", args)
    base_rate = base["generated_tokens"] / base["total_s"]
    gen_rate = base["generated_tokens"] / base["generate_s"]
    our_rate = ours["generated_tokens"] / ours["total_s"]
    result = {
        "chunks": args.chunks,
        "model": args.model,
        "device": args.accelerator_type or f"CPU ({os.cpu_count()} cores)",
        "python": platform.python_version(),
        "baseline": base,
        "ours": ours,
        "ratio_end_to_end": our_rate / base_rate,
        "ratio_vs_generation_alone": our_rate / gen_rate,
    }
    lines = [
        f"# Entity extraction: our Ray Data stage vs vLLM `LLM.chat` ({args.chunks} chunks)",
        "",
        f"Model `{Path(args.model).name}`, device {result['device']}, batch size {args.batch_size}, "
        f"dtype {args.dtype}, enforce_eager {args.eager}. Written by `bench/llm_extract.py`.",
        "",
        "| run | generated tokens | seconds | tokens/s | ours / baseline |",
        "|---|---:|---:|---:|---:|",
        f"| vLLM `LLM.chat`, engine start + generation | {base['generated_tokens']} | {base['total_s']:.1f} | "
        f"{base_rate:.1f} | 1.00 |",
        f"| vLLM `LLM.chat`, generation alone | {base['generated_tokens']} | {base['generate_s']:.1f} | "
        f"{gen_rate:.1f} | |",
        f"| ours: `extract_entities` on Ray Data (all stages, engine start) | {ours['generated_tokens']} | "
        f"{ours['total_s']:.1f} | {our_rate:.1f} | **{result['ratio_end_to_end']:.2f}** |",
        "",
        f"Ours against generation alone: {result['ratio_vs_generation_alone']:.2f}. Rows back: {ours['rows']} "
        f"of {args.chunks}, {ours['failed_rows']} with a problem (quarantined, not dropped). Goal: ours / "
        "baseline ≥ 0.8 end to end.",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
