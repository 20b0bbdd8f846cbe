"""Waiting on a page in the browser tests."""

POLL_SECONDS = 0.1
"""How often a wait asks the page again.  selenium's default (half a second) added a quarter of a second,
on average, to every wait the page does not meet at once; asking costs about 2.7 ms of CPU (the test,
chromedriver and Chromium), so every 20 ms would take an eighth of a core from the other workers while
a page is awaited, and every 0.1 s under 3%."""


def waiting(driver, seconds: float):
    """A ``WebDriverWait`` on ``driver`` for at most ``seconds``, asking every :data:`POLL_SECONDS`."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=POLL_SECONDS)
