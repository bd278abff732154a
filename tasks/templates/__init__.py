"""Task templates: functions that read a seeded world and yield task variants.

A template is registered with @template and lives in tasks/templates/<app>/<area>.py:

    @template("mail", "star-latest-from", difficulty="easy", max_steps=12)
    def star_latest_from(w: World, rng: random.Random):
        for contact in rng.sample(w.table("contacts"), 10):
            msg = ...  # computed from the world's rows
            yield {"goal": f"Star the latest email from {contact['name']}.",
                   "start_path": "/inbox",
                   "verify": {...}, "solution": [...], "near_misses": [[...]]}

`uigym tasks generate --app mail` turns every template into tasks/mail/<template>.json (committed,
so tasks are plain files a person can read), assigning ids, seeds, splits and validating each task.
"""

from tasks.templates.base import TEMPLATES, TemplateInfo, World, template

__all__ = ["TEMPLATES", "TemplateInfo", "World", "template"]
