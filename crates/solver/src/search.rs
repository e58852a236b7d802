//! The searches: df-pn (`dfpn`) on one thread or several ([`parallel`], whose
//! threads share a `team`), the exhaustive reference search (`reference`), and
//! the bounded search of one position that a campaign's jobs are made of
//! ([`bounded`]), which may take positions proven elsewhere
//! ([`crate::ProvenElsewhere`]).

pub mod bounded;
pub(crate) mod dfpn;
pub mod parallel;
pub(crate) mod proven;
pub(crate) mod reference;
pub(crate) mod team;
