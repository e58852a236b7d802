//! An independent, deliberately plain implementation of the rules of `RULES.md` on an
//! array of cells, used only to check the bitboard engine. It shares no code with it:
//! it has its own parser of the position text.

#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    White,
    Black,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NaiveGame {
    pub width: usize,
    pub height: usize,
    /// `cells[rank][file]`, rank 0 is rank 1.
    pub cells: Vec<Vec<Cell>>,
    pub white_to_move: bool,
}

impl NaiveGame {
    pub fn start(width: usize, height: usize) -> NaiveGame {
        let mut cells = vec![vec![Cell::Empty; width]; height];
        cells[0] = vec![Cell::White; width];
        cells[1] = vec![Cell::White; width];
        cells[height - 2] = vec![Cell::Black; width];
        cells[height - 1] = vec![Cell::Black; width];
        NaiveGame {
            width,
            height,
            cells,
            white_to_move: true,
        }
    }

    /// Parses `ranks side` without validating anything beyond the shape.
    pub fn from_text(text: &str) -> NaiveGame {
        let (ranks, side) = text.split_once(' ').unwrap();
        let mut rows = Vec::new();
        for rank in ranks.split('/') {
            let mut row = Vec::new();
            let mut number = String::new();
            for c in rank.chars() {
                if c.is_ascii_digit() {
                    number.push(c);
                    continue;
                }
                if !number.is_empty() {
                    row.extend(std::iter::repeat_n(Cell::Empty, number.parse().unwrap()));
                    number.clear();
                }
                row.push(if c == 'W' { Cell::White } else { Cell::Black });
            }
            if !number.is_empty() {
                row.extend(std::iter::repeat_n(Cell::Empty, number.parse().unwrap()));
            }
            rows.push(row);
        }
        rows.reverse();
        NaiveGame {
            width: rows[0].len(),
            height: rows.len(),
            cells: rows,
            white_to_move: side == "w",
        }
    }

    fn own(&self) -> Cell {
        if self.white_to_move {
            Cell::White
        } else {
            Cell::Black
        }
    }

    fn file_letter(file: usize) -> char {
        (b'a' + file as u8) as char
    }

    /// Legal moves as text, in no particular order.
    pub fn moves(&self) -> Vec<(usize, usize, usize, usize, bool)> {
        if self.winner().is_some() {
            return Vec::new();
        }
        self.raw_moves()
    }

    fn raw_moves(&self) -> Vec<(usize, usize, usize, usize, bool)> {
        let own = self.own();
        let mut out = Vec::new();
        for rank in 0..self.height {
            for file in 0..self.width {
                if self.cells[rank][file] != own {
                    continue;
                }
                let next = if self.white_to_move {
                    rank as i64 + 1
                } else {
                    rank as i64 - 1
                };
                if next < 0 || next >= self.height as i64 {
                    continue;
                }
                let next = next as usize;
                for df in [-1i64, 0, 1] {
                    let f = file as i64 + df;
                    if f < 0 || f >= self.width as i64 {
                        continue;
                    }
                    let f = f as usize;
                    let target = self.cells[next][f];
                    if df == 0 {
                        if target == Cell::Empty {
                            out.push((file, rank, f, next, false));
                        }
                    } else if target != own {
                        out.push((file, rank, f, next, target != Cell::Empty));
                    }
                }
            }
        }
        out
    }

    pub fn move_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .moves()
            .into_iter()
            .map(|(f1, r1, f2, r2, capture)| {
                format!(
                    "{}{}{}{}{}",
                    Self::file_letter(f1),
                    r1 + 1,
                    if capture { 'x' } else { '-' },
                    Self::file_letter(f2),
                    r2 + 1
                )
            })
            .collect();
        texts.sort();
        texts
    }

    pub fn play(&self, mv: (usize, usize, usize, usize, bool)) -> NaiveGame {
        let mut next = self.clone();
        let (f1, r1, f2, r2, _) = mv;
        next.cells[r2][f2] = next.cells[r1][f1];
        next.cells[r1][f1] = Cell::Empty;
        next.white_to_move = !self.white_to_move;
        next
    }

    /// `Some(true)` White has won, `Some(false)` Black has won, `None` goes on.
    pub fn winner(&self) -> Option<bool> {
        if self.cells[self.height - 1].contains(&Cell::White) {
            return Some(true);
        }
        if self.cells[0].contains(&Cell::Black) {
            return Some(false);
        }
        let own = self.own();
        let has_pieces = self.cells.iter().any(|row| row.contains(&own));
        if !has_pieces || self.raw_moves().is_empty() {
            return Some(!self.white_to_move);
        }
        None
    }

    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => return 1,
            1 => return self.moves().len() as u64,
            _ => {}
        }
        self.moves()
            .into_iter()
            .map(|mv| self.play(mv).perft(depth - 1))
            .sum()
    }

    /// Whether the rules let this set-up stand (see `RULES.md`): at most `2W` pieces a
    /// side, no piece of the side to move on its goal rank, not both goals reached,
    /// and the side that just moved has a piece.
    pub fn is_valid_setup(&self) -> bool {
        let count = |c: Cell| self.cells.iter().flatten().filter(|&&x| x == c).count();
        if count(Cell::White) > 2 * self.width || count(Cell::Black) > 2 * self.width {
            return false;
        }
        let white_home = self.cells[self.height - 1].contains(&Cell::White);
        let black_home = self.cells[0].contains(&Cell::Black);
        if white_home && black_home {
            return false;
        }
        if (self.white_to_move && white_home) || (!self.white_to_move && black_home) {
            return false;
        }
        let mover = if self.white_to_move {
            Cell::Black
        } else {
            Cell::White
        };
        count(mover) > 0
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.height).rev() {
            let mut empty = 0;
            for file in 0..self.width {
                match self.cells[rank][file] {
                    Cell::Empty => empty += 1,
                    c => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        out.push(if c == Cell::White { 'W' } else { 'B' });
                    }
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.white_to_move { 'w' } else { 'b' });
        out
    }
}
