"""What `uigym qa --app food` crawls and which searches it proves answer (docs/qa.md). Plain data: the app never
imports the harness.

The seeded world (seed 0) has no cart, so /checkout is crawled as its empty state; the cart drawer, item dialog and
checkout are reached through the store page's controls instead.
"""

SEARCH_BOX = [{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": "{q}"}, {"press": ["Enter"]}]
STORE_CARDS = ".store-grid .store-card"

QA = {
    "start_pages": [
        "/",
        "/search?q=pizza",
        "/search?q=pad%20thai",
        "/cuisine/thai",
        "/?r45=1&sort=rating",
        "/offers",
        "/store/1",
        "/store/167",
        "/orders",
        "/orders/40101",
        "/orders/40130",
        "/orders/40131",
        "/orders/40101/receipt",
        "/orders/40101/help",
        "/checkout",
        "/account/profile",
        "/account/addresses",
        "/account/payment",
        "/account/saved",
        "/account/plus",
        "/account/credits",
        "/account/notifications",
    ],
    "seed": 0,
    "vocabulary": {
        "word": ["ramen", "pad thai", "vegan", "pizza near me", "sushi", "tacos", "boba", "burger", "gluten free",
                 "spicy", "dumplings", "breakfast"],
        "cuisine": {"table": "cuisines", "field": "name", "sample": 8},
        "cuisine_slug": {"table": "cuisines", "field": "slug", "sample": 8},
        "store": {"table": "stores", "field": "name", "sample": 6},
        "dish": {"table": "menu_items", "field": "name", "sample": 6},
        "store1_dish": {"table": "menu_items", "field": "name", "sample": 4, "where": {"store_id": 1}},
        "price": ["1", "2", "3", "4", "1,2"],
        "sort": ["rating", "distance", "eta", "fee"],
    },
    "queries": [
        # a store is found by its name, its cuisine, its tags or a dish on its menu (shown as `Has "..."` only
        # for dish matches), so store results are checked for presence, dishes for their names
        {"name": "search box: words", "vocab": "word", "page": "/", "steps": SEARCH_BOX,
         "results": STORE_CARDS, "match": "none"},
        {"name": "search: cuisines", "vocab": "cuisine", "url": "/search?q={q}", "results": STORE_CARDS,
         "match": "none"},
        {"name": "search: store names", "vocab": "store", "url": "/search?q={q}", "results": STORE_CARDS,
         "match": "any"},
        {"name": "search box: store names", "vocab": "store", "page": "/offers", "steps": SEARCH_BOX,
         "results": STORE_CARDS, "match": "any", "max_queries": 3},
        {"name": "search: dishes", "vocab": "dish", "url": "/search?q={q}", "results": ".dish-card",
         "match": "all"},
        {"name": "search suggestions: stores", "vocab": "store", "page": "/",
         "steps": [{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": "{q}"}],
         "results": "#suggest [role=option]", "match": "any"},
        {"name": "search suggestions: dishes", "vocab": "dish", "page": "/",
         "steps": [{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": "{q}"}],
         "results": "#suggest [role=option]", "match": "any", "max_queries": 3},
        {"name": "cuisine pages", "vocab": "cuisine_slug", "url": "/cuisine/{q}", "results": STORE_CARDS,
         "match": "none"},
        {"name": "price filter", "vocab": "price", "url": "/?price={q}", "results": STORE_CARDS, "match": "none"},
        {"name": "search sorted", "vocab": "sort", "url": "/search?q=pizza&sort={q}", "results": STORE_CARDS,
         "match": "none"},
        {"name": "store menu search", "vocab": "store1_dish", "page": "/store/1",
         "steps": [{"fill": {"role": "searchbox", "name": "Search store menu"}, "text": "{q}"}],
         "results": ".menu-section [data-menu-item]", "match": "all"},
    ],
    "goal_terms": ["Forkful", "Forkful Plus", "Express", "Standard", "Schedule", "Pickup", "Delivery",
                   "Bayview"],
}
