//! SVG pictures: the opening of a picture, and a search's course plotted.

use std::fmt::Write as _;

use breakthrough_result::Sample;

/// An SVG picture's opening: its size, the font, a white background.
pub fn svg_start(width: f64, height: f64) -> anyhow::Result<String> {
    let mut svg = String::new();
    writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">"#
    )?;
    writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#)?;
    Ok(svg)
}

/// Where a plot goes in its picture: its title, top, height and the picture's width.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    pub title: &'a str,
    pub top: f64,
    pub height: f64,
    pub width: f64,
}

/// Root proof and disproof numbers against time, on a log scale.
pub fn plot(svg: &mut String, course: &[Sample], frame: Frame) -> anyhow::Result<()> {
    let Frame {
        title,
        top,
        height: h,
        width,
    } = frame;
    let (left, right) = (60.0, width - 20.0);
    let last = course.last().map_or(0.0, |s| s.seconds).max(1e-3);
    let top_value = course
        .iter()
        .flat_map(|s| [s.root_proof.finite(), s.root_disproof.finite()])
        .flatten()
        .fold(1.0f64, |top, v| top.max(v as f64));
    let decades = (top_value + 1.0).log10().ceil().max(1.0);
    let x_of = |t: f64| left + (right - left) * t / last;
    let y_of = |v: f64| top + h - h * (v + 1.0).log10() / decades;
    writeln!(
        svg,
        r#"<text x="{left}" y="{}" font-size="12">{title}</text>"#,
        top - 6.0
    )?;
    writeln!(
        svg,
        r##"<rect x="{left}" y="{top}" width="{}" height="{h}" fill="none" stroke="#999"/>"##,
        right - left
    )?;
    for d in 0..=decades as u32 {
        let y = y_of(10f64.powi(d as i32) - 1.0);
        writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end">1e{d}</text>"#,
            left - 4.0,
            y + 3.0
        )?;
    }
    for i in 0..=4 {
        let t = last * f64::from(i) / 4.0;
        writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{t:.1} s</text>"#,
            x_of(t),
            top + h + 14.0
        )?;
    }
    let proof: fn(&Sample) -> Option<u64> = |s| s.root_proof.finite();
    let disproof: fn(&Sample) -> Option<u64> = |s| s.root_disproof.finite();
    for (field, colour) in [(proof, "#c0392b"), (disproof, "#2e6fb7")] {
        let points: Vec<String> = course
            .iter()
            .filter_map(|s| {
                let value = field(s)? as f64;
                Some(format!("{:.1},{:.1}", x_of(s.seconds), y_of(value)))
            })
            .collect();
        writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{}"/>"#,
            points.join(" ")
        )?;
    }
    Ok(())
}
