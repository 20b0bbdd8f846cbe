from captureAgents import CaptureAgent


class Lonely(CaptureAgent):
    pass
