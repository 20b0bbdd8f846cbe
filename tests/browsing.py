"""Waiting on a page in the browser tests."""

POLL_SECONDS = 0.02
"""How often a wait asks the page again: selenium's default (half a second) would add a quarter of a second,
on average, to every wait the page does not meet at once."""


def waiting(driver, seconds: float):
    """A ``WebDriverWait`` on ``driver`` for at most ``seconds``, asking every :data:`POLL_SECONDS`."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=POLL_SECONDS)
