"""One hand to a person survives a restart: a player who left his seat mid-game is still
held to the hand he was shown, over both stores."""

from __future__ import annotations

from e2e_client import Client
from test_restart_gm import MakeServer, make_server, serving  # the fixture, reused
from test_server_seats import started_table

from protocol import messages as m

__all__ = ["make_server"]


async def test_a_player_who_left_is_held_to_his_hand_after_a_restart(
    make_server: MakeServer,
) -> None:
    async with serving(make_server) as (_server, port):
        companion = await Client.connect(port, "companion")
        hopper, table = await started_table(port, "hopper", companion=companion)
        await hopper.wait_for(lambda x: isinstance(x, m.Turn))
        assert isinstance(await hopper.request(m.Leave(table=table)), m.Ok)
        for c in (hopper, companion):
            await c.aclose()
    async with serving(make_server) as (_server, port):
        hopper = await Client.connect(port, "hopper")
        refused = await hopper.request(m.Join(table=table, seat=1))
        assert isinstance(refused, m.Error) and refused.code == "other_hand", refused
        back = await hopper.request(m.Join(table=table))  # his own seat is still his
        assert isinstance(back, m.Seated) and back.seat == 0, back
        await hopper.aclose()
