"""Rules 8 and 9: the Combat Phase: declarations (8.1), battles and deployments (8.2-8.5),
Loyalty Challenges (8.6), losses (8.7), retreats (8.8), sieges (8.9), replenishment
(8.10), and the special blocks and disks (9.1, 9.2, 9.4, 9.5)."""
