// deadpos serve's page: set up a position, ask /flag or /standard, show the verdict in an arbiter's
// words and step through the helpmate line. The board is chessground when it is installed
// (node_modules/, scripts/setup.sh); otherwise a text diagram, and the page is a FEN form.

const $ = (id) => document.getElementById(id);
const fenBox = $('fen');
let cg = null;           // the chessground board, or null
let line = null;         // {start, fens: [...], san: [...], uci: [...]} of the shown line
let at = 0;              // plies of the line played on the board

const PIECES = {K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
                k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F'};

// ---- FEN and moves, enough to show a line (the server checked every move) ----------------------

function parseBoard(fen) {
  const rows = fen.split(' ')[0].split('/');
  const b = {};
  rows.forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else { b['abcdefgh'[f] + (8 - i)] = ch; f += 1; }
    }
  });
  return b;
}

function boardFen(b) {
  const rows = [];
  for (let r = 8; r >= 1; r--) {
    let row = '', empty = 0;
    for (const f of 'abcdefgh') {
      const p = b[f + r];
      if (p) { row += (empty || '') + p; empty = 0; } else empty += 1;
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}

// The placement after a UCI move (castling as a king's two-square move, en passant, promotion).
function play(b, uci) {
  const n = Object.assign({}, b);
  const from = uci.slice(0, 2), to = uci.slice(2, 4), promo = uci[4];
  const p = n[from];
  delete n[from];
  if (p.toLowerCase() === 'k' && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2) {
    const rank = from[1], kingside = to[0] === 'g';
    const rf = (kingside ? 'h' : 'a') + rank, rt = (kingside ? 'f' : 'd') + rank;
    n[rt] = n[rf];
    delete n[rf];
  }
  if (p.toLowerCase() === 'p' && from[0] !== to[0] && !n[to]) delete n[to[0] + from[1]];
  n[to] = promo ? (p === 'P' ? promo.toUpperCase() : promo) : p;
  return n;
}

function sideToMove(fen) { return (fen.split(' ')[1] || 'w') === 'b' ? 'black' : 'white'; }

// ---- the board ----------------------------------------------------------------------------------

function show(fen, lastMove) {
  if (cg) {
    cg.set({fen: fen.split(' ')[0], lastMove: lastMove, turnColor: sideToMove(fen)});
  } else {
    const b = parseBoard(fen);
    let s = '';
    for (let r = 8; r >= 1; r--) {
      for (const f of 'abcdefgh') s += PIECES[b[f + r]] || ((f.charCodeAt(0) + r) % 2 ? '\u00B7' : ' ');
      s += '\n';
    }
    $('diagram').textContent = s;
  }
}

async function loadBoard() {
  try {
    const mod = await import('./node_modules/chessground/dist/chessground.js');
    cg = mod.Chessground($('board'), {
      coordinates: true,
      movable: {free: true, color: 'both'},  // set up a position by dragging; the FEN box follows
      draggable: {deleteOnDropOff: true},
      events: {change: () => {
        const rest = fenBox.value.trim().split(/\s+/).slice(1);
        fenBox.value = [cg.getFen(), ...(rest.length ? rest : ['w', '-', '-', '0', '1'])].join(' ');
        line = null;
        renderLine();
      }},
    });
  } catch (e) {
    cg = null;
    $('board').classList.add('plain');
    $('diagram').hidden = false;
  }
  setUp();
}

// ---- verdicts in an arbiter's words -------------------------------------------------------------

const NAME = {white: 'White', black: 'Black'};
const other = (s) => (s === 'white' ? 'black' : 'white');

function flagWords(a) {
  const f = a.flag, who = NAME[f.flagged], opp = NAME[other(f.flagged)];
  switch (f.reason) {
    case 'checkmate':
      return ['win', `${f.result}: the position is checkmate; the game ended before the flag fell.`];
    case 'stalemate':
      return ['draw', `Draw (1/2-1/2): the position is stalemate; the game ended before the flag fell.`];
    case 'dead-position':
      return ['draw', `Draw (1/2-1/2): ${who}'s flag fell, but the position is dead: neither side can ` +
                      `checkmate by any sequence of legal moves (FIDE 5.2.2).`];
    case 'opponent-cannot-mate':
      return ['draw', `Draw (1/2-1/2): ${who}'s flag fell, but ${opp} cannot checkmate by any sequence ` +
                      `of legal moves (FIDE 6.9).`];
    case 'opponent-can-mate':
      return ['win', `${opp} wins (${f.result}): ${who}'s flag fell and ${opp} can checkmate by a sequence ` +
                     `of legal moves (FIDE 6.9).`];
    default:
      return ['open', `No verdict: whether ${opp} can checkmate is undetermined (the analysis ran out of ` +
                      `its budget). The arbiter decides.`];
  }
}

function sideWords(a, side) {
  const can = a[side + '_can_mate'], how = a.how[side + '_can_mate'];
  const dthm = a[side === 'white' ? 'dthm_black_mated_plies' : 'dthm_white_mated_plies'];
  if (can === null) return `${NAME[side]}: undetermined (${how.budget} budget ran out).`;
  if (!can) return `${NAME[side]} cannot checkmate (${how.method === 'rule' ? 'rule: ' + how.rule : how.method}).`;
  return `${NAME[side]} can checkmate` + (dthm !== null ? ` (shortest helpmate ${dthm} plies).` : ' (found by search).');
}

function positionWords(a) {
  if (a.checkmate) return ['win', `${NAME[sideToMove(a.fen)]} is checkmated.`];
  if (a.stalemate) return ['draw', 'Stalemate: the game is drawn.'];
  if (a.dead === true) return ['draw', 'Dead position: neither side can checkmate by any sequence of legal ' +
                                       'moves; the game is drawn (FIDE 5.2.2).'];
  if (a.dead === null) return ['open', 'Undetermined whether the position is dead.'];
  return ['win', 'Not a dead position: play goes on.'];
}

function source(a) {
  if (a.table) return `Decided by the ${a.table} table` + (a.castling_search ? ' and a castling search' : '') + '.';
  if (a.checkmate || a.stalemate) return 'Decided by the rules: no legal move.';
  return 'Decided beyond the tables by an exact search.';
}

function say(kind, text, detail) {
  const v = $('verdict');
  v.className = kind;
  v.textContent = text;
  $('detail').textContent = detail || '';
}

async function ask(url) {
  say('', 'Asking\u2026');
  try {
    const r = await fetch(url);
    const a = await r.json();
    if (a.error) { say('error', `Not answered: ${a.error.category}: ${a.error.message}`); return null; }
    return a;
  } catch (e) {
    say('error', 'The server did not answer: ' + e);
    return null;
  }
}

async function flag(side) {
  const fen = fenBox.value.trim();
  show(fen);
  const a = await ask('flag?flagged=' + side + '&fen=' + encodeURIComponent(fen));
  if (!a) return;
  const [kind, text] = flagWords(a);
  say(kind, text, sideWords(a, 'white') + ' ' + sideWords(a, 'black') + ' ' + source(a));
  const l = (a.lines || []).find((x) => x.uci);
  line = l ? {start: a.fen, san: l.san, uci: l.uci, mated: l.mated, shortest: l.shortest} : null;
  if (line) {
    line.fens = [a.fen];
    let b = parseBoard(a.fen);
    for (const u of line.uci) { b = play(b, u); line.fens.push(boardFen(b)); }
  }
  at = 0;
  renderLine();
}

async function analyse() {
  const fen = fenBox.value.trim();
  show(fen);
  const a = await ask('standard?fen=' + encodeURIComponent(fen));
  if (!a) return;
  const [kind, text] = positionWords(a);
  say(kind, text, sideWords(a, 'white') + ' ' + sideWords(a, 'black') + ' ' + source(a));
  line = null;
  renderLine();
}

// ---- the helpmate line --------------------------------------------------------------------------

function renderLine() {
  const el = $('line');
  el.textContent = '';
  $('step-at').textContent = '';
  if (!line) return;
  const head = document.createElement('div');
  head.textContent = `Helpmate line (${NAME[line.mated]} is checkmated in ${line.san.length} plies` +
                     (line.shortest ? ', shortest' : '') + '):';
  el.appendChild(head);
  line.san.forEach((san, i) => {
    const s = document.createElement('span');
    s.className = 'mv' + (i + 1 === at ? ' at' : '');
    s.textContent = san;
    s.title = line.uci[i];
    s.onclick = () => step(i + 1);
    el.appendChild(s);
    el.appendChild(document.createTextNode(' '));
  });
  $('step-at').textContent = `ply ${at} / ${line.san.length}`;
}

function step(n) {
  if (!line) return;
  at = Math.max(0, Math.min(line.san.length, n));
  const u = at > 0 ? line.uci[at - 1] : null;
  show(line.fens[at] + ' ' + (at % 2 === 0 ? line.start.split(' ')[1] : (line.start.split(' ')[1] === 'w' ? 'b' : 'w')),
       u ? [u.slice(0, 2), u.slice(2, 4)] : undefined);
  renderLine();
}

function setUp() {
  line = null;
  show(fenBox.value.trim());
  renderLine();
  say('', '');
}

$('load').onclick = setUp;
$('analyse').onclick = analyse;
$('flag-white').onclick = () => flag('white');
$('flag-black').onclick = () => flag('black');
$('step-first').onclick = () => step(0);
$('step-prev').onclick = () => step(at - 1);
$('step-next').onclick = () => step(at + 1);
$('step-last').onclick = () => step(line ? line.san.length : 0);
fenBox.addEventListener('keydown', (e) => { if (e.key === 'Enter') setUp(); });
loadBoard();
