"""The isolation room: untrusted code in a process of its own, its limits enforced from outside."""
