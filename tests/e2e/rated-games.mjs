// Rated games played through the REAL game server over a page's own
// WebSocket with the protocol's messages (the server referees and rates
// each as any other): what tests/e2e/settled.test.mjs and the issue 37
// screenshots need many of, faster than clicking through the page.

/**
 * In `page` (on the server's origin): registers two names and plays rated
 * Territory Duel games between them (each a rated invite: a move each,
 * then one resigns, the winner alternating, as a pair of regulars
 * would): `games` of them, or fewer once `untilSettled` and one rating
 * is no longer provisional. With `live`, one more game is started and
 * left after two moves (its sockets stay open while the page does), so
 * the lobby lists it. Returns each player's id, the games played and the
 * first settled player (`{ index, rating }`) if any.
 */
export async function playRated(page, { names, games: most, untilSettled = false, live = false }) {
  return page.evaluate(async ({ names, most, untilSettled, live }) => {
    const url = `${location.origin.replace(/^http/, 'ws')}/ws`;
    const connect = () => new Promise((ok, fail) => {
      const ws = new WebSocket(url);
      const inbox = [];
      let wake = null;
      ws.onmessage = (e) => { inbox.push(JSON.parse(e.data)); wake?.(); };
      ws.onerror = () => fail(new Error('websocket error'));
      // The next message `want` accepts (the ones before it are
      // skipped); a refusal is an error. Deadline 10 s.
      ws.until = async (want) => {
        const end = Date.now() + 10000;
        for (;;) {
          const i = inbox.findIndex((m) => want(m) || m.type === 'refused' || m.type === 'error');
          if (i >= 0) {
            const m = inbox.splice(0, i + 1)[i];
            if (m.type === 'refused' || m.type === 'error') throw new Error(JSON.stringify(m));
            return m;
          }
          if (Date.now() > end) throw new Error(`nothing wanted in 10 s; have ${JSON.stringify(inbox.map((m) => [m.type, m.event]))}`);
          await new Promise((r) => { wake = r; setTimeout(r, 200); });
        }
      };
      ws.say = (m) => ws.send(JSON.stringify(m));
      ws.onopen = () => ok(ws);
    });
    const players = [];
    for (const name of names) {
      const ws = await connect();
      ws.say({ type: 'hello', v: 2 });
      await ws.until((m) => m.type === 'welcome');
      ws.say({ type: 'register', name });
      const me = await ws.until((m) => m.type === 'identity');
      players.push({ ws, id: me.player.id });
    }
    const inGame = (m, f) => (m.type === 'state' || m.type === 'update') && f(m);
    const rating = async (id) => {
      const ws = players[0].ws;
      ws.say({ type: 'player', who: id, page: 0 });
      const p = await ws.until((m) => m.type === 'player_page' && m.player.id === id);
      return p.ratings.find((r) => r.game === 'Ataxx');
    };
    // A rated invite (a quick match would wait while the two ratings are
    // far apart after a game), and a move each (a game is rated once both
    // sides have moved).
    const start = async (n) => {
      const [host, guest] = n % 2 ? [players[1], players[0]] : players;
      host.ws.say({ type: 'create', game: { Ataxx: { no_move: 'Pass' } }, clock_secs: 60, side: 'random', rated: true });
      const seat = await host.ws.until((m) => m.type === 'seat' && m.join_key);
      guest.ws.say({ type: 'join', room: seat.room, key: seat.join_key });
      const states = [];
      for (const p of players) states.push(await p.ws.until((m) => inGame(m, (s) => s.event === 'started')));
      if (!states.every((s) => s.rated)) throw new Error('a rated invite started a casual game');
      const mover = states[0].you === states[0].to_move ? 0 : 1;
      for (const [ply, who, mv] of [[0, mover, 'b6'], [1, 1 - mover, 'b2']]) {
        players[who].ws.say({ type: 'move', ply, mv });
        for (const p of players) await p.ws.until((m) => inGame(m, (s) => s.event === 'moved'));
      }
    };
    let games = 0;
    let settled = null;
    while (games < most && !(untilSettled && settled)) {
      await start(games);
      // The winner alternates, so both ratings stay near each other.
      players[games % 2].ws.say({ type: 'resign' });
      for (const p of players) {
        await p.ws.until((m) => inGame(m, (s) => s.outcome != null));
        p.ws.say({ type: 'leave' });
      }
      games += 1;
      if (untilSettled) {
        for (const [i, p] of players.entries()) {
          const r = await rating(p.id);
          if (r && !r.provisional && r.games === games) settled ??= { index: i, rating: r.rating };
        }
      }
    }
    if (live) {
      await start(games);
      window.liveGame = players.map((p) => p.ws);
    } else {
      for (const p of players) p.ws.close();
    }
    return { ids: players.map((p) => p.id), games, settled };
  }, { names, most, untilSettled, live });
}
