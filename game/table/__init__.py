"""The table's drivers, shared by every way of playing (hot-seat, the LAN host, simulations):
the one submit path (`master`), its countdowns and clock, when bots act (`bot_schedule`),
what a bot is handed (`seat_view`), headless games and their results (`simulate`,
`results`, `tournament`). Below ui and net; above the rules and the bots."""
