"""Does a model read the goal? A teacher-forced probe of the change call, without serving or sampling.

    python -m experiments.learning_probe MODEL DATASET      # DATASET: a `uigym export sft` folder (its train split)

For every sample whose target is a change call (not the plan's look-up, not `done`), the probe scores each
change tool's name after the prompt (the model's probability of writing that name, renormalised over the
tools seen in the dataset's change calls) and checks whether greedy decoding writes the whole target call.
It prints, per template, the mean probability of each tool and the greedy exact-call rate. A model that picks
the change by habit shows the same row under every template; one that reads the goal puts its template's
tool near 1. Export the oracle's episodes on held-out worlds to probe generalisation (docs/learning/README.md
does, with the recipe's `--restate-goal` export when the model was trained on it).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict


def _name(target: str) -> str:
    return json.loads(target.split("<tool_call>", 1)[1].split("</tool_call>", 1)[0])["name"]


def probe(model_dir: str, dataset: str, lookups: tuple[str, ...] = ("get_account",)) -> dict:
    import torch
    from transformers import AutoModelForImageTextToText, AutoProcessor

    from agent_harness.export.chat import prompt_and_target
    from agent_harness.train.sft import load_dataset_dict
    from experiments.learning import template_of

    processor = AutoProcessor.from_pretrained(model_dir)
    tok = processor.tokenizer
    model = AutoModelForImageTextToText.from_pretrained(model_dir).eval()
    rows = [r for r in load_dataset_dict(dataset)["train"]
            if "<tool_call>" in r["target"] and _name(r["target"]) not in (*lookups, "done")]  # not a closing turn
    names = sorted({_name(r["target"]) for r in rows})
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    exact: dict[str, list[bool]] = defaultdict(list)

    def ids(text: str) -> list[int]:
        return tok(text, add_special_tokens=False)["input_ids"]

    for row in rows:
        p_text, t_text = prompt_and_target(row, processor)
        head = t_text.split(_name(row["target"]), 1)[0]  # the call up to its name: '<tool_call>\n{"name": "'
        prompt = ids(p_text)
        scores = []
        for name in names:
            cand = ids(head + name)
            seq = torch.tensor([prompt + cand])
            with torch.no_grad():
                logp = model(input_ids=seq).logits[0, len(prompt) - 1:-1].log_softmax(-1)
            # the head is scored too (the same for every name, unless the tokenizer merges it with the name)
            scores.append(sum(logp[j, c].item() for j, c in enumerate(cand)))
        for name, p in zip(names, torch.tensor(scores).softmax(0).tolist()):
            sums[template_of(row["task_id"])][name] += p
        target = ids(t_text)
        seq = torch.tensor([prompt + target])
        with torch.no_grad():
            pred = model(input_ids=seq).logits[0, len(prompt) - 1:-1].argmax(-1).tolist()
        exact[template_of(row["task_id"])].append(pred == target)
    return {t: {"n": len(exact[t]), "tool_probability": {k: round(v / len(exact[t]), 3) for k, v in sums[t].items()},
                "greedy_exact": round(sum(exact[t]) / len(exact[t]), 3)} for t in sorted(exact)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("dataset")
    ap.add_argument("--lookups", default="get_account", help="comma-separated tools that only read (not scored)")
    args = ap.parse_args(argv)
    print(json.dumps(probe(args.model, args.dataset, tuple(args.lookups.split(","))), indent=1))


if __name__ == "__main__":
    main()
