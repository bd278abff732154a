"""The food clone's one blueprint; the view modules register their routes on it."""

from flask import Blueprint

bp = Blueprint("food", __name__)
