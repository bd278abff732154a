"""What `uigym qa --app food` crawls and which searches and filters it proves answer (docs/qa.md). Plain data: the
app never imports the harness.

The seeded world (seed 0) has no cart, so /checkout is crawled as its empty state; the cart drawer, item dialog and
checkout are reached through the store page's controls instead.

Data completeness: what a DoorDash user types or taps should never end on an empty page. The header search finds
stores by name, cuisine, tag or a dish on their menu, and words for cuisines the market has no store of its own
for ("lebanese", "gelato", "keto") lead to the related cuisines' stores (apps/food/views/browse.py, RELATED). A
store found through a dish or a related cuisine does not show the word, so store results are checked for
presence (`match: none`) except for store-name searches; dish results must all name the dish.
"""

SEARCH_BOX = [{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": "{q}"}, {"press": ["Enter"]}]
TYPE_AHEAD = [{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": "{q}"}]
STORE_CARDS = ".store-grid .store-card"
SUGGESTIONS = "#suggest [role=option]"

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
        "/orders/40129",  # delivered yesterday: Adjust tip and Rate your Dasher (issue 46)
        "/orders/40130",
        "/orders/40131",
        "/orders/40101/receipt",
        "/orders/40101/help",
        "/orders/40102/help",  # a line of 2: the 'How many <item>' radios (issue 46)
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
        # typed into the header search box, as people do
        "typed": ["ramen", "pad thai", "pizza near me", "boba", "vegan", "sushi"],
        # dishes, diets and cravings
        "word": ["burger", "tacos", "pho", "chicken wings", "salad", "coffee", "pasta", "tikka masala", "donuts",
                 "smoothie", "gluten free", "halal"],
        # cuisines and styles the market has no store of its own for: the related cuisines answer
        "related": ["lebanese", "jamaican", "dim sum", "gelato", "keto", "soul food"],
        "cuisine": {"table": "cuisines", "field": "name", "sample": 8},
        "cuisine_slug": {"table": "cuisines", "field": "slug", "sample": 8},
        "popular": ["pizza", "sushi", "burgers", "thai", "mexican", "chinese"],
        "store": {"table": "stores", "field": "name", "sample": 6},
        "dish": {"table": "menu_items", "field": "name", "sample": 6},
        "store1_dish": {"table": "menu_items", "field": "name", "sample": 4, "where": {"store_id": 1}},
        "store167_dish": {"table": "menu_items", "field": "name", "sample": 3, "where": {"store_id": 167}},
        "price": ["1", "2", "3", "4", "1,2"],
        "sort": ["rating", "distance", "eta", "fee"],
        "on": ["1"],
    },
    "queries": [
        {"name": "search box: what people type", "vocab": "typed", "page": "/", "steps": SEARCH_BOX,
         "results": STORE_CARDS, "match": "none"},
        {"name": "search: dishes, diets, cravings", "vocab": "word", "url": "/search?q={q}", "results": STORE_CARDS,
         "match": "none", "max_queries": 12},
        {"name": "search: related cuisines", "vocab": "related", "url": "/search?q={q}", "results": STORE_CARDS,
         "match": "none"},
        {"name": "search: cuisines", "vocab": "cuisine", "url": "/search?q={q}", "results": STORE_CARDS,
         "match": "none"},
        {"name": "search: store names", "vocab": "store", "url": "/search?q={q}", "results": STORE_CARDS,
         "match": "any"},
        {"name": "search box: store names", "vocab": "store", "page": "/offers", "steps": SEARCH_BOX,
         "results": STORE_CARDS, "match": "any", "max_queries": 3},
        {"name": "search: dish names", "vocab": "dish", "url": "/search?q={q}", "results": ".dish-card",
         "match": "all"},
        {"name": "search suggestions: stores", "vocab": "store", "page": "/offers", "steps": TYPE_AHEAD,
         "results": SUGGESTIONS, "match": "any", "max_queries": 3},
        {"name": "search suggestions: dishes", "vocab": "dish", "page": "/offers", "steps": TYPE_AHEAD,
         "results": SUGGESTIONS, "match": "any", "max_queries": 2},
        {"name": "search suggestions: cuisines", "vocab": "cuisine", "page": "/offers", "steps": TYPE_AHEAD,
         "results": SUGGESTIONS, "match": "any", "max_queries": 3},
        {"name": "search, rated 4.5+", "vocab": "popular", "url": "/search?q={q}&r45=1", "results": STORE_CARDS,
         "match": "none", "max_queries": 3},
        {"name": "search, under 30 min", "vocab": "popular", "url": "/search?q={q}&fast=1", "results": STORE_CARDS,
         "match": "none", "max_queries": 2},
        {"name": "search, deals", "vocab": "popular", "url": "/search?q={q}&deals=1", "results": STORE_CARDS,
         "match": "none", "max_queries": 2},
        {"name": "search, pickup", "vocab": "popular", "url": "/search?q={q}&pickup=1", "results": STORE_CARDS,
         "match": "none", "max_queries": 2},
        {"name": "search sorted", "vocab": "sort", "url": "/search?q=pizza&sort={q}", "results": STORE_CARDS,
         "match": "none"},
        {"name": "cuisine pages", "vocab": "cuisine_slug", "url": "/cuisine/{q}", "results": STORE_CARDS,
         "match": "none"},
        {"name": "cuisine pages, rated 4.5+", "vocab": "cuisine_slug", "url": "/cuisine/{q}?r45=1",
         "results": STORE_CARDS, "match": "none", "max_queries": 3},
        {"name": "cuisine pages, under 30 min", "vocab": "cuisine_slug", "url": "/cuisine/{q}?fast=1",
         "results": STORE_CARDS, "match": "none", "max_queries": 3},
        {"name": "home: price", "vocab": "price", "url": "/?price={q}", "results": STORE_CARDS, "match": "none"},
        {"name": "home: rated 4.5+", "vocab": "on", "url": "/?r45={q}", "results": STORE_CARDS, "match": "none"},
        {"name": "home: under 30 min", "vocab": "on", "url": "/?fast={q}", "results": STORE_CARDS, "match": "none"},
        {"name": "home: deals", "vocab": "on", "url": "/?deals={q}", "results": STORE_CARDS, "match": "none"},
        {"name": "home: Forkful Plus", "vocab": "on", "url": "/?plus={q}", "results": STORE_CARDS, "match": "none"},
        {"name": "home: pickup", "vocab": "on", "url": "/?pickup={q}", "results": STORE_CARDS, "match": "none"},
        {"name": "store menu search (store 1)", "vocab": "store1_dish", "page": "/store/1",
         "steps": [{"fill": {"role": "searchbox", "name": "Search store menu"}, "text": "{q}"}],
         "results": ".menu-section [data-menu-item]", "match": "all"},
        {"name": "store menu search (store 167)", "vocab": "store167_dish", "page": "/store/167",
         "steps": [{"fill": {"role": "searchbox", "name": "Search store menu"}, "text": "{q}"}],
         "results": ".menu-section [data-menu-item]", "match": "all"},
    ],
    "goal_terms": ["Forkful", "Forkful Plus", "Express", "Standard", "Schedule", "Pickup", "Delivery",
                   "Bayview"],
}
