package reversi;

// The 8 directions in which pieces can be captured, as (dy, dx):
// up, up+right, right, down+right, down, down+left, left, up+left.
public class Directions {
	public static final int[][] ALL = {
		{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}
	};
}
