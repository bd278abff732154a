from __future__ import annotations

import datetime as dt

import pytest

from apps.mail import formatting as fmt

NOW = dt.datetime(2026, 3, 12, 10, 24)


def test_list_dates_follow_gmail():
    assert fmt.list_date(dt.datetime(2026, 3, 12, 9, 5), NOW) == "9:05 AM"
    assert fmt.list_date(dt.datetime(2026, 3, 12, 0, 30), NOW) == "12:30 AM"
    assert fmt.list_date(dt.datetime(2026, 3, 11, 23, 59), NOW) == "Mar 11"
    assert fmt.list_date(dt.datetime(2026, 1, 3, 13, 0), NOW) == "Jan 3"
    assert fmt.list_date(dt.datetime(2025, 3, 4, 13, 0), NOW) == "3/4/25"


def test_thread_dates():
    assert fmt.thread_date(dt.datetime(2026, 3, 12, 10, 5), NOW) == "10:05 AM (19 minutes ago)"
    assert fmt.thread_date(dt.datetime(2026, 3, 10, 16, 5), NOW) == "Tue, Mar 10, 4:05 PM (1 day ago)"
    assert fmt.thread_date(dt.datetime(2026, 1, 2, 8, 0), NOW) == "Fri, Jan 2, 8:00 AM"
    assert fmt.thread_date(dt.datetime(2024, 11, 12, 15, 21), NOW) == "Nov 12, 2024, 3:21 PM"
    assert fmt.long_date(dt.datetime(2026, 3, 5, 15, 21)) == "Thu, Mar 5, 2026, 3:21 PM"


def test_parse_addresses():
    assert fmt.parse_addresses("Ana Diaz <Ana@X.io>, bob@y.com; ana@x.io", "To") == ["ana@x.io", "bob@y.com"]
    assert fmt.parse_addresses(["a@b.co"], "Cc") == ["a@b.co"]
    assert fmt.parse_addresses("", "To") == []
    with pytest.raises(fmt.AddressError) as e:
        fmt.parse_addresses("ana diaz", "To")
    assert '"ana diaz" in the "To" field' in str(e.value)
