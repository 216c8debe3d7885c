//! TCP: connections ([`conn`]), RTO ([`rto`]), congestion control ([`cc`]), and the glue
//! that carries segments as packets through the world ([`flow`]).

pub mod cc;
pub mod conn;
pub mod rack;
pub mod rate;
pub mod rto;
pub mod rtt_hist;
pub mod sack;

#[cfg(test)]
mod tests;
