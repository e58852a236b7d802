//! `breakthrough.Position`: a position of the engine, immutable and hashable.

use breakthrough_engine as engine;
use breakthrough_engine::{Board, Color};
use pyo3::prelude::*;
use pyo3::types::{PyTuple, PyType};

use crate::errors::{error, Kind};

/// A Breakthrough position on a board of W columns and H rows: the pieces and the
/// side to move. White starts on ranks 1-2, moves first and moves up the board.
///
/// `Position()` is the start of 5x5; `Position("6x5")` the start of 6x5;
/// `Position(text="BBB/3/3/WWW w")` or `Position.from_text(...)` any position in
/// the text format (ranks from the top, `W`/`B`, runs of empty squares, side to
/// move). Positions compare equal when board, pieces and side to move are.
#[pyclass(frozen, skip_from_py_object, module = "breakthrough")]
#[derive(Clone, Debug)]
pub struct Position(pub engine::Position);

/// A side as the package names it.
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A board from its `WxH` name.
pub fn board(name: &str) -> PyResult<Board> {
    name.parse::<Board>()
        .map_err(|e| error(Kind::Board, format!("board {name:?}: {e}")))
}

/// A position from its text.
pub fn parse(text: &str) -> PyResult<engine::Position> {
    text.parse::<engine::Position>()
        .map_err(|e| error(Kind::Position, format!("position {text:?}: {e}")))
}

/// The position a solve or a probe is about: a `Position`, a position's text, or a
/// board's name (its start).
pub fn from_arg(arg: &Bound<'_, PyAny>) -> PyResult<engine::Position> {
    if let Ok(position) = arg.cast::<Position>() {
        return Ok(position.get().0);
    }
    let Ok(text) = arg.extract::<String>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "expected a Position, a position's text or a board such as \"5x5\", not {}",
            arg.get_type().name()?
        )));
    };
    if text.contains('/') {
        parse(&text)
    } else {
        Ok(engine::Position::start(board(text.trim())?))
    }
}

#[pymethods]
impl Position {
    /// The start of `board` (5x5 when neither is given), or the position `text`
    /// (which must then be on `board`, when both are given).
    #[new]
    #[pyo3(signature = (board=None, text=None))]
    fn new(board: Option<&str>, text: Option<&str>) -> PyResult<Position> {
        let on = board.map(self::board).transpose()?;
        match (on, text) {
            (on, Some(text)) => {
                let position = parse(text)?;
                match on {
                    Some(on) if on != position.board() => Err(error(
                        Kind::Position,
                        format!(
                            "position {text:?} is on {}, not on board {on}",
                            position.board()
                        ),
                    )),
                    _ => Ok(Position(position)),
                }
            }
            (Some(on), None) => Ok(Position(engine::Position::start(on))),
            (None, None) => Ok(Position(engine::Position::start(self::board("5x5")?))),
        }
    }

    /// The position written in the text format, its board implied by its ranks.
    #[classmethod]
    fn from_text(_class: &Bound<'_, PyType>, text: &str) -> PyResult<Position> {
        parse(text).map(Position)
    }

    /// The start position of `board` (`"WxH"`).
    #[classmethod]
    fn start(_class: &Bound<'_, PyType>, board: &str) -> PyResult<Position> {
        Ok(Position(engine::Position::start(self::board(board)?)))
    }

    /// The position in the text format.
    fn to_text(&self) -> String {
        self.0.to_string()
    }

    /// The board, `"WxH"` (columns x rows).
    #[getter]
    fn board(&self) -> String {
        self.0.board().to_string()
    }

    #[getter]
    fn width(&self) -> u32 {
        self.0.board().width()
    }

    #[getter]
    fn height(&self) -> u32 {
        self.0.board().height()
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn to_move(&self) -> &'static str {
        side_name(self.0.to_move())
    }

    /// The legal moves' names (`a2-a3`, `b2xc3`), in the engine's order; none once
    /// the game is over.
    fn legal_moves(&self) -> Vec<String> {
        if self.0.winner().is_some() {
            return Vec::new();
        }
        self.0
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The position after `move` (its name, as `legal_moves` gives it).
    fn play(&self, r#move: &str) -> PyResult<Position> {
        let bad = |why: String| error(Kind::Move, format!("move {move:?} in {}: {why}", self.0));
        if self.0.winner().is_some() {
            return Err(bad("the game is over".to_string()));
        }
        let mv = self.0.parse_move(r#move).map_err(|e| bad(e.to_string()))?;
        self.0
            .try_play(mv)
            .map(Position)
            .map_err(|e| bad(e.to_string()))
    }

    /// The winner once the game is over (`"white"` or `"black"`), else None.
    fn winner(&self) -> Option<&'static str> {
        self.0.winner().map(side_name)
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.0.winner().is_some()
    }

    /// The position reflected left to right (same value, same length).
    fn mirror(&self) -> Position {
        Position(self.0.mirror())
    }

    /// A diagram in text: rank numbers, file letters, `W`, `B` and `.`.
    fn diagram(&self) -> String {
        self.0.diagram()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position.from_text({:?})", self.0.to_string())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Position>()
            .is_ok_and(|other| other.get().0 == self.0)
    }

    fn __hash__(&self) -> u64 {
        // The Zobrist key leaves the board out: positions of different boards with
        // equal armies are rare and still compare unequal.
        self.0.hash() ^ u64::from(self.0.board().width())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let from_text = slf.get_type().getattr("from_text")?;
        let text = slf.get().0.to_string();
        PyTuple::new(
            slf.py(),
            [
                from_text.into_any(),
                PyTuple::new(slf.py(), [text])?.into_any(),
            ],
        )
    }

    /// The board as SVG, for notebooks.
    fn _repr_svg_(&self) -> String {
        svg(&self.0)
    }
}

/// The board drawn as SVG: light and dark squares, White's pieces light and
/// Black's dark, files lettered below and ranks numbered on the left.
fn svg(position: &engine::Position) -> String {
    const CELL: u32 = 40;
    const MARGIN: u32 = 20;
    let board = position.board();
    let (width, height) = (board.width(), board.height());
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#,
        w = MARGIN + width * CELL,
        h = height * CELL + MARGIN + 18
    );
    for rank in 0..height {
        let y = (height - 1 - rank) * CELL;
        out.push_str(&format!(
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            MARGIN / 2,
            y + CELL / 2 + 4,
            rank + 1
        ));
        for file in 0..width {
            let x = MARGIN + file * CELL;
            let fill = if (rank + file) % 2 == 0 {
                "#b58863"
            } else {
                "#f0d9b5"
            };
            out.push_str(&format!(
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            ));
            let index = rank * width + file;
            let piece = if position.pieces(Color::White).has(index) {
                Some(("#ffffff", "#000000"))
            } else if position.pieces(Color::Black).has(index) {
                Some(("#222222", "#000000"))
            } else {
                None
            };
            if let Some((fill, stroke)) = piece {
                out.push_str(&format!(
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
                    x + CELL / 2,
                    y + CELL / 2,
                    CELL * 3 / 8
                ));
            }
        }
    }
    for file in 0..width {
        out.push_str(&format!(
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            MARGIN + file * CELL + CELL / 2,
            height * CELL + 15,
            char::from(b'a' + file as u8)
        ));
    }
    out.push_str(&format!(
        r#"<text x="{}" y="{}">{} to move</text></svg>"#,
        MARGIN,
        height * CELL + 33,
        side_name(position.to_move())
    ));
    out
}
