"""The "Learn to play" tutorial: a session on the hot-seat one, a coach over the table."""
