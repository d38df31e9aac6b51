public enum BoundaryCheck {}
