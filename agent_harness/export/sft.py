"""Trajectories (human, oracle or model) -> an SFT dataset, one sample per step.

    from agent_harness.export import ExportConfig, export_sft
    stats = export_sft(ExportConfig(runs=[Path("runs/demos")], out=Path("data/sft"), format="qwen", history=3))
    ds = datasets.load_from_disk("data/sft")          # DatasetDict: train, test

A sample is the prompt the model agent would have sent at that step (agents/model.py: the format's
system prompt, the goal, the URL, the step, earlier actions as assistant turns, the last K
screenshots as images) and, as the target, the step's action written in the chosen action format
(`agent_harness.formats.render`): the same texts the eval harness parses. Columns follow TRL's
conversational prompt-completion layout for vision-language models (`prompt`, `completion`,
`images`), with the metadata beside them (task, app, difficulty, source, annotator, ...).

Written to OUT: the `datasets` DatasetDict (`load_from_disk(OUT)`), `train.jsonl`/`test.jsonl` with
the images as files under `images/` (one file per distinct screenshot), `README.md` (the dataset
card) and `export.json` (options and counts).
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator

from agent_harness.export.config import ExportConfig, ExportStats
from agent_harness.export.prompts import EpisodePrompter, image_refs, to_dataset_messages
from agent_harness.export.tool_samples import tool_episode_samples
from agent_harness.formats import ParseError, Rendered, RenderError, Reply
from agent_harness.results import latest_results, read_results
from agent_harness.trajectory import Trajectory
from gym_core.actions import WORKSPACE_ACTION_TYPES, ActionError, action_to_dict, parse_action


@dataclass
class Episode:
    run: Path
    row: dict
    traj: Trajectory
    dir: Path

    @property
    def source(self) -> str:
        return source_of(self.traj.agent, self.traj.annotator)

    @property
    def task_id(self) -> str:
        return self.row["task_id"]


def source_of(agent: str | None, annotator: str | None = None) -> str:
    """human (recorded with `uigym record`), oracle (the gold solution, maybe jittered) or model."""
    agent = agent or ""
    if annotator or agent.startswith("human"):
        return "human"
    if agent.startswith(("oracle", "tool-oracle")):
        return "oracle"
    return "model"


# ----------------------------------------------------------------------------- episodes

def iter_episodes(runs: list[Path], stats: ExportStats | None = None) -> Iterator[Episode]:
    """Every finished episode with a trajectory in the run folders (the last result per agent/task/sample)."""
    stats = stats or ExportStats()
    for run in runs:
        run = Path(run)
        if not (run / "results.jsonl").exists():
            raise FileNotFoundError(f"{run} has no results.jsonl (not an eval, record or oracle run folder)")
        rows = sorted(latest_results(read_results(run)),
                      key=lambda r: (r.get("task_id", ""), r.get("agent", ""), r.get("sample", 0)))
        for row in rows:
            if row.get("error"):
                stats.skipped_episodes["error"] += 1
                continue
            edir = run / row.get("episode_dir", "")
            path = edir / "trajectory.json"
            if not path.exists():
                stats.skipped_episodes["no trajectory"] += 1
                continue
            yield Episode(run=run, row=row, traj=Trajectory.load(path), dir=edir)


def _start_url(ep: Episode) -> str:
    url = getattr(ep.traj, "start_url", "") or ""
    if url:
        return url
    task_file = ep.dir / "task.json"
    if task_file.exists():
        try:
            return json.loads(task_file.read_text()).get("start_path", "/")
        except (json.JSONDecodeError, OSError):
            pass
    try:
        from tasks import load_task

        return load_task(ep.task_id).start_path
    except Exception:  # noqa: BLE001 - a task that is not bundled: its start page is unknown
        return "/"


# ----------------------------------------------------------------------------- splits

def _unit_hash(key: str) -> float:
    return int(hashlib.sha256(key.encode()).hexdigest()[:12], 16) / float(1 << 48)


def assign_splits(rows: list[dict], mode: str = "auto", test_fraction: float = 0.1,
                  group_by: str = "task") -> dict[str, str]:
    """task_id -> "train" | "test". A task's whole set of samples lands on one side.

    `field`: the task's own `split`. `hash`: a stable hash of the task id (or its template) below
    `test_fraction` is test, so a task keeps its side as data and tasks are added. `auto`: `field` for
    the apps that mark some tasks as test, `hash` for the others."""
    by_task: dict[str, dict] = {}
    for r in rows:
        by_task.setdefault(r["task_id"], r)
    apps_with_test = {r.get("app") for r in by_task.values() if r.get("split") == "test"}
    out: dict[str, str] = {}
    hashed: dict[str, list[str]] = defaultdict(list)
    for tid, r in by_task.items():
        use_field = mode == "field" or (mode == "auto" and r.get("app") in apps_with_test)
        if use_field:
            out[tid] = "test" if r.get("split") == "test" else "train"
        else:
            group = (r.get("template") or tid) if group_by == "template" else tid
            hashed[f"{r.get('app')}/{group}" if group_by == "template" else group].append(tid)
    if hashed:
        score = {g: _unit_hash(g) for g in hashed}
        test_groups = {g for g, h in score.items() if h < test_fraction}
        if not test_groups and test_fraction > 0 and len(hashed) >= 2:
            test_groups = {min(score, key=score.get)}  # a small set still gets a test split
        for g, tids in hashed.items():
            for tid in tids:
                out[tid] = "test" if g in test_groups else "train"
    return out


# ----------------------------------------------------------------------------- targets

def _tabs(row: dict) -> tuple[str, ...]:
    """The tabs of the episode's screen: the workspace env's apps for a workspace episode (its prompt tells the model
    how to switch them, as the eval's did), none for one app's."""
    from seed_data.workspace import APPS
    from tasks.schema import WORKSPACE

    if row.get("app") != WORKSPACE or row.get("mode") == "tools":
        return ()

    return tuple(APPS)


def target_for(fmt, action: Any, ctx) -> tuple[Rendered, list[dict]]:
    """The action written in the format, and the uigym actions the harness parses back from that text.

    A drag along a path becomes a drag between its ends in formats that only know two points. A tab switch (a
    workspace episode's) is written as the Ctrl+N chord every format can press (formats/base.py as_action)."""
    a = action_to_dict(parse_action(action, WORKSPACE_ACTION_TYPES["ui"]))
    try:
        rendered = fmt.render(a, ctx)
    except RenderError:
        if a["type"] == "drag" and len(a["path"]) > 2:
            a = {"type": "drag", "path": [a["path"][0], a["path"][-1]]}
            rendered = fmt.render(a, ctx)
        else:
            raise
    parsed = fmt.parse(Reply(content=rendered.text()), ctx).actions
    return rendered, parsed


class _Images:
    """Screenshots written once each under OUT/images/, named by the hash of what is written."""

    def __init__(self, out: Path, size: tuple[int, int] | None):
        self.dir = out / "images"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.size = size
        self._by_src: dict[Path, tuple[str, str]] = {}

    def add(self, src: Path) -> tuple[str, str]:
        """(relative path of the image file, sha of the original screenshot)."""
        hit = self._by_src.get(src)
        if hit is not None:
            return hit
        raw = src.read_bytes()
        src_sha = hashlib.sha256(raw).hexdigest()
        data = raw
        if self.size is not None:
            from PIL import Image

            with Image.open(io.BytesIO(raw)) as im:
                if im.size != self.size:
                    im = im.convert("RGB").resize(self.size, Image.Resampling.BICUBIC)
                    buf = io.BytesIO()
                    im.save(buf, format="PNG", compress_level=3)
                    data = buf.getvalue()
        sha = src_sha if data is raw else hashlib.sha256(data).hexdigest()
        rel = f"images/{sha[:24]}.png"
        dst = self.dir / f"{sha[:24]}.png"
        if not dst.exists():
            dst.write_bytes(data)
        self._by_src[src] = (rel, src_sha)
        return rel, src_sha


def _shot_path(ep: Episode, index: int) -> Path:
    name = ep.traj.first_screenshot if index == 0 else ep.traj.steps[index - 1].screenshot
    return ep.dir / name


def episode_samples(ep: Episode, cfg: ExportConfig, images: _Images, stats: ExportStats) -> Iterator[dict]:
    """One sample per usable step of the episode (see the module doc; tool-mode episodes:
    export/tool_samples.py)."""
    traj = ep.traj
    if traj.mode == "tools":
        yield from tool_episode_samples(ep, _meta(ep, cfg), stats, cfg.keep_failed_actions, cfg.restate_goal,
                                        cfg.closing_turn)
        return
    screen = (int(traj.viewport[0]), int(traj.viewport[1]))
    prompter = EpisodePrompter(cfg.format, screen, cfg.image_size, max_pixels=cfg.max_pixels, coords=cfg.coords,
                               history_images=cfg.history, history_turns=cfg.history_turns,
                               include_url=cfg.include_url, tool_screenshots=cfg.tool_screenshots,
                               tabs=_tabs(ep.row))
    fmt, ctx = prompter.format, prompter.ctx
    tools = prompter.tools()
    tools_json = json.dumps(tools, ensure_ascii=False) if tools else ""
    url, error, step_no = _start_url(ep), "", 0
    meta = {**_meta(ep, cfg), "format": fmt.name, "screen_width": screen[0], "screen_height": screen[1],
            "image_width": ctx.image[0], "image_height": ctx.image[1], "tools": tools_json}
    for i, s in enumerate(traj.steps):
        messages = prompter.observe(goal=traj.goal, url=url, step=step_no, error=error, image=i)
        rendered, parsed, skip = None, None, ""
        if s.parse_error:
            skip = "unparsed model reply"
        elif not isinstance(s.action, dict) or s.action.get("type") in (None, "screenshot"):
            skip = "no-op screenshot"
        elif s.error and not cfg.keep_failed_actions:
            skip = "action failed"
        try:
            rendered, parsed = target_for(fmt, s.action, ctx)
        except (RenderError, ParseError, ActionError, TypeError, KeyError, ValueError) as e:
            skip = skip or f"not expressible in {fmt.name}: {type(e).__name__}"
        if not skip:
            refs = image_refs(messages)
            shots = [_shot_path(ep, k) for k in refs]
            missing = [p for p in shots if not p.exists()]
            if missing:
                skip = "screenshot missing"
            else:
                files = [images.add(p) for p in shots]
                completion = {"role": "assistant", "content": rendered.text()}
                yield {
                    **meta,
                    "step": int(s.step), "url": url, "last_action_error": error,
                    "prompt": to_dataset_messages(messages),
                    "completion": to_dataset_messages([completion]),
                    "images": [f for f, _ in files],
                    "target": rendered.text(),
                    "actions": json.dumps(parsed, ensure_ascii=False),
                    "recorded_action": json.dumps(s.action, ensure_ascii=False),
                    "screenshot_sha": images.add(_shot_path(ep, i))[1],
                    "think_ms": float((s.usage or {}).get("think_ms", 0.0)),
                }
        if skip:
            stats.skipped_steps[skip] += 1
        prompter.act(rendered, fallback_text=(s.text or json.dumps(s.action, ensure_ascii=False)))
        url, error, step_no = s.url, s.error, s.step


def episode_look(ep: Episode) -> str:
    """The look the episode was shown in; an episode recorded before looks existed was in its app's default."""
    look = ep.row.get("look") or getattr(ep.traj, "look", None)
    if look:
        return look
    from apps import app_looks

    app = ep.row.get("app") or ep.traj.app or ep.task_id.split("/")[0]
    try:
        return app_looks(app)[0]
    except KeyError:
        return ""


def episode_variant(ep: Episode) -> str:
    """The variant the episode was shown in, as its label ("zoom=0.8,locale=de-DE"; gym_core/variant.py): "default" for
    none moved, "" where none was recorded (tools mode, episodes recorded before variants)."""
    v = ep.row.get("variant") or getattr(ep.traj, "variant", None)
    return str(v.get("label", "")) if isinstance(v, dict) else ""


def _meta(ep: Episode, cfg: ExportConfig) -> dict:
    """The columns every sample of the episode shares (the screen ones are overridden by screen samples)."""
    traj = ep.traj
    return {
        "task_id": ep.task_id, "app": ep.row.get("app") or traj.app or ep.task_id.split("/")[0],
        "difficulty": ep.row.get("difficulty") or "", "task_split": ep.row.get("split") or "",
        "template": ep.row.get("template") or "", "look": episode_look(ep), "variant": episode_variant(ep),
        "family": ep.row.get("family") or "",  # the seed family its world was built from ("": the app's own)
        "source": ep.source, "agent": traj.agent,
        "annotator": traj.annotator or "", "run": str(ep.run), "episode": str(ep.dir.relative_to(ep.run)),
        "sample": int(ep.row.get("sample", traj.sample) or 0), "episode_steps": len(traj.steps),
        "episode_reward": float(traj.reward), "episode_passed": float(traj.reward) >= 1.0, "goal": traj.goal,
        "format": "", "coords": cfg.coords, "screen_width": 0, "screen_height": 0, "image_width": 0,
        "image_height": 0, "tools": "",
    }


# ----------------------------------------------------------------------------- dataset

def features():
    """The dataset's schema: TRL's conversational prompt-completion columns plus metadata."""
    import datasets as hf

    lst = getattr(hf, "List", hf.Sequence)
    message = {"role": hf.Value("string"),
               "content": lst({"type": hf.Value("string"), "text": hf.Value("string")})}
    s, i, f, b = hf.Value("string"), hf.Value("int32"), hf.Value("float32"), hf.Value("bool")
    return hf.Features({
        "id": s, "task_id": s, "app": s, "difficulty": s, "split": s, "task_split": s, "template": s, "look": s,
        "variant": s, "family": s,
        "source": s, "agent": s, "annotator": s, "run": s, "episode": s, "sample": i, "step": i,
        "episode_steps": i, "episode_reward": f, "episode_passed": b, "goal": s, "url": s,
        "last_action_error": s, "format": s, "coords": s, "screen_width": i, "screen_height": i,
        "image_width": i, "image_height": i, "prompt": lst(message), "completion": lst(message),
        "images": lst(hf.Image()), "tools": s, "target": s, "actions": s, "recorded_action": s,
        "screenshot_sha": s, "think_ms": f,
    })


OUR_FILES = ("dataset_dict.json", "train", "test", "train.jsonl", "test.jsonl", "images", "README.md",
             "export.json")


def _prepare_out(cfg: ExportConfig) -> None:
    out = cfg.out
    if out.exists() and any(out.iterdir()):
        ours = (out / "export.json").exists()
        if not (cfg.overwrite and ours):
            raise FileExistsError(f"{out} is not empty" + ("; pass overwrite (--overwrite) to replace the export"
                                                          if ours else " (and is not an earlier export)"))
        for name in OUR_FILES:
            p = out / name
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
    out.mkdir(parents=True, exist_ok=True)


def export_sft(cfg: ExportConfig, progress=None) -> ExportStats:
    """Write the dataset (see the module doc); returns counts."""
    import datasets as hf

    from agent_harness.export.card import write_card
    from gym_core.heldout_variants import heldout_named

    stats = ExportStats(out=str(cfg.out))
    episodes = []
    for ep in iter_episodes(cfg.runs, stats):
        if cfg.only_passed and float(ep.row.get("reward", ep.traj.reward)) < 1.0:
            stats.skipped_episodes["not passed"] += 1
            continue
        if cfg.looks and episode_look(ep) not in cfg.looks:
            stats.skipped_episodes["other look"] += 1
            continue
        if cfg.sources and ep.source not in cfg.sources:
            stats.skipped_episodes[f"source {ep.source}"] += 1
            continue
        if cfg.train_variants and heldout_named(episode_variant(ep)):
            stats.skipped_episodes["held-out variant"] += 1
            continue
        episodes.append(ep)
    _prepare_out(cfg)
    splits = assign_splits([ep.row for ep in episodes], cfg.split, cfg.test_fraction, cfg.group_by)
    rows: dict[str, list[dict]] = {"train": [], "test": []}
    seen: set[tuple] = set()
    by_size: dict = {}
    for n, ep in enumerate(episodes):
        size = _image_size_for(cfg, ep)
        images = by_size.get(size) or by_size.setdefault(size, _Images(cfg.out, size))
        split = splits[ep.task_id]
        stats.episodes += 1
        for sample in episode_samples(ep, cfg, images, stats):
            key = (sample["task_id"], sample["screenshot_sha"], sample["actions"])
            if cfg.dedupe and key in seen:
                stats.duplicates += 1
                continue
            seen.add(key)
            sample["split"] = split
            sample["id"] = hashlib.sha1(f"{ep.run}|{sample['episode']}|{sample['step']}".encode()).hexdigest()[:16]
            rows[split].append(sample)
        if progress:
            progress(n + 1, len(episodes))
    stats.images = len(list((cfg.out / "images").glob("*.png")))
    feats = features()
    dsd = {}
    for split, rs in rows.items():
        stats.samples[split] = len(rs)
        with (cfg.out / f"{split}.jsonl").open("w") as f:
            for r in rs:
                f.write(json.dumps({k: r[k] for k in feats}, ensure_ascii=False) + "\n")
        recs = [{**{k: r[k] for k in feats}, "images": [str(cfg.out / p) for p in r["images"]]} for r in rs]
        dsd[split] = hf.Dataset.from_list(recs, features=feats) if recs else hf.Dataset.from_dict(
            {k: [] for k in feats}, features=feats)
    # An empty split is written as one empty shard (with none, load_from_disk fails on it).
    hf.DatasetDict(dsd).save_to_disk(str(cfg.out), num_shards={k: (1 if len(d) == 0 else None) for k, d in dsd.items()})
    write_card(cfg, stats, rows)
    opts = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(cfg).items()}
    opts["runs"] = [str(r) for r in cfg.runs]
    (cfg.out / "export.json").write_text(json.dumps({"options": opts, "stats": stats.as_dict()}, indent=1))
    return stats


def _image_size_for(cfg: ExportConfig, ep: Episode) -> tuple[int, int] | None:
    """The size screenshots are stored at: the model's image size when it differs from the screen."""
    screen = (int(ep.traj.viewport[0]), int(ep.traj.viewport[1]))
    if cfg.image_size:
        size = tuple(cfg.image_size)
    elif cfg.max_pixels:
        from agent_harness.agents.model import smart_resize

        size = smart_resize(*screen, max_pixels=cfg.max_pixels)
    else:
        return None
    return None if size == screen else size
