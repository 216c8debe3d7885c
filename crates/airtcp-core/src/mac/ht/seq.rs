//! Sequence numbers: 12 bits, modulo 4096 (9.2.4.4.2). Block Ack windows compare them in the
//! half space of 2048 (10.25.6.3: a number is "before" the window start when it lies in the
//! 2048 numbers below it).

/// Sequence numbers count modulo this (9.2.4.4.2).
pub const SEQ_MODULO: u16 = 4096;
/// Half the sequence space: the comparison horizon of 10.25.6.
const HALF: u16 = SEQ_MODULO / 2;

/// `a + n` modulo 4096.
#[inline]
pub fn add(a: u16, n: u16) -> u16 {
    (a + n) % SEQ_MODULO
}

/// How far `b` lies after `a`, modulo 4096 (0..4095).
#[inline]
pub fn distance(a: u16, b: u16) -> u16 {
    (b + SEQ_MODULO - a % SEQ_MODULO) % SEQ_MODULO
}

/// `b` lies before `a` in the modulo-4096 sense: within the 2048 numbers below it
/// (10.25.6.3: "SN < WinStartR" is `WinStartR - 2^11 < SN < WinStartR`, modulo 2^12).
#[inline]
pub fn before(b: u16, a: u16) -> bool {
    let d = distance(b, a);
    d != 0 && d < HALF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modular_arithmetic() {
        assert_eq!(add(4095, 1), 0);
        assert_eq!(add(4000, 200), 104);
        assert_eq!(distance(4090, 5), 11);
        assert_eq!(distance(5, 5), 0);
        // 10.25.6.3: 2047 numbers below the start are "before" it, the rest are not.
        assert!(before(10, 11) && before(4095, 0) && before(add(100, 4096 - 2047), 100));
        assert!(!before(11, 11) && !before(12, 11) && !before(add(100, 4096 - 2048), 100));
    }
}
