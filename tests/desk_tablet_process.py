"""One tablet at a table, as its own process (tests/test_desk_server.py): join the desk with a pairing code, play a
random whole game into a journal of its own while the outbox sender sends it, and print what it played."""

import json
import random
import sys
import time

from companion.desk_link import OutboxSender, join
from companion.record import new_game
from companion.record.journal import Journal
from companion.rules.random_play import random_events


def main(url: str, code: str, journal_path: str, seed: int) -> int:
    assignment = join(url, code)
    with Journal(journal_path) as journal:
        assignment = assignment.with_game(journal.create_game(assignment.record()))
        events = list(random_events(new_game(assignment.record()), random.Random(seed), 3000))
        sender = OutboxSender(journal_path, assignment, poll=0.05).start()
        try:
            for event in events:
                journal.append(assignment.game_id, event)
                sender.wake()
            end = time.monotonic() + 90
            while not (sender.status["state"] == "up to date" and sender.status["have"] == len(events)):
                if time.monotonic() > end:
                    print(f"not up to date: {sender.status}", file=sys.stderr)
                    return 1
                time.sleep(0.02)
        finally:
            sender.stop()
    print(json.dumps({"table": assignment.table, "events": events}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
