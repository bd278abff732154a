"""The mail clone's one blueprint; the view modules register their routes on it."""

from flask import Blueprint

bp = Blueprint("mail", __name__)
