"""What `uigym qa --app mail` crawls and searches (docs/qa.md). Plain data: the app never imports the harness."""

QA = {
    "start_pages": ["/inbox", "/inbox/promotions", "/starred", "/snoozed", "/sent", "/drafts", "/scheduled", "/all",
                    "/spam", "/trash", "/label/Work", "/search?q=invoice", "/settings/general", "/settings/labels",
                    "/settings/filters", "/contacts"],
    "seed": 0,
    "vocabulary": {
        "word": ["invoice", "flight", "receipt", "contract", "budget", "dinner", "launch", "order"],
        "contact": {"table": "contacts", "field": "name", "sample": 6},
        "company": {"table": "contacts", "field": "company", "sample": 6, "where": {"relation": "client"}},
        "operator": ["is:unread", "has:attachment", "is:starred", "label:travel", "in:sent", "is:snoozed",
                     "larger:200K", "invoice OR flight", "{receipt contract}", "in:inbox -{invoice order}",
                     "(is:starred OR is:important) has:attachment"],
    },
    "queries": [
        {"name": "search box: words", "vocab": "word", "page": "/inbox",
         "steps": [{"fill": {"role": "searchbox", "name": "Search mail"}, "text": "{q}"}, {"press": ["Enter"]}],
         "results": "tr.row", "match": "any", "tokens": True, "min_results": 1},
        {"name": "search box: people", "vocab": "contact", "page": "/inbox",
         "steps": [{"fill": {"role": "searchbox", "name": "Search mail"}, "text": "{q}"}, {"press": ["Enter"]}],
         "results": "tr.row", "match": "none", "min_results": 1},
        {"name": "search: companies", "vocab": "company", "url": "/search?q={q}", "results": "tr.row", "match": "none",
         "min_results": 1},
        {"name": "search: operators", "vocab": "operator", "url": "/search?q={q}", "results": "tr.row", "match": "none",
         "min_results": 1, "max_queries": 11},
        {"name": "contacts search", "vocab": "contact", "url": "/contacts?q={q}", "results": "tr.c-row", "match": "all",
         "min_results": 1},
    ],
    "exclude": ["/attachments/*/download*"],
    "goal_terms": ["Primary", "Promotions", "Social", "Updates", "Spam", "Trash", "Drafts", "Snoozed", "Scheduled",
                   "Accounts Payable", "Contacts", "Finance", "Inkbox"],
}
