//! Eddi: a code editor without a screen.
